import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import { IdentityError } from './errors.js';

/** Maps the multipart plugin's own errors to the statuses the seed lists. */
const MULTIPART_STATUS: Record<string, [number, string]> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'The request must be multipart/form-data'],
  FST_REQ_FILE_TOO_LARGE: [413, 'The file is larger than 15 MB'],
  FST_FILES_LIMIT: [422, 'Send exactly one file, in the field "file"'],
  FST_FIELDS_LIMIT: [422, 'Too many form fields'],
  FST_PARTS_LIMIT: [422, 'Too many form parts'],
  FST_PROTO_VIOLATION: [422, 'Invalid form field name'],
};

/** True for the multipart plugin's own limit and content-type errors (mapped by MULTIPART_STATUS). */
export function isMultipartError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code in MULTIPART_STATUS;
}

/** Every error in this scope, the framework's own included, becomes exactly `{detail}`. */
export function useDetailErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof IdentityError) return reply.status(err.statusCode).send({ detail: err.detail });
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = [
        err.validationContext,
        ...String(first?.instancePath ?? '')
          .split('/')
          .filter(Boolean),
      ].join('.');
      return reply.status(422).send({ detail: `${where}: ${first?.message ?? 'invalid'}` });
    }
    const mapped = err.code ? MULTIPART_STATUS[err.code] : undefined;
    if (mapped) return reply.status(mapped[0]).send({ detail: mapped[1] });
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ detail: err.message || 'Rate limit exceeded' });
    }
    if (status === 503 || isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply.status(503).send({ detail: 'The service is temporarily unavailable' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: err.message || 'The request is not valid' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });
  scope.setNotFoundHandler((req, reply) => reply.status(404).send({ detail: `Route ${req.method} ${req.url.split('?')[0]} not found` }));
}
