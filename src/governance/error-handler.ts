import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import { GovernanceError } from './errors.js';

function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

/** Every error of the governance scopes, the framework's own included, as `{error:{code,message}}`. */
export function useGovernanceErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof GovernanceError) return reply.status(err.statusCode).send(errorBody(err.code, err.message));
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = [
        err.validationContext,
        ...String(first?.instancePath ?? '')
          .split('/')
          .filter(Boolean),
      ].join('.');
      return reply.status(400).send(errorBody('VALIDATION_ERROR', `${where}: ${first?.message ?? 'invalid'}`));
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.status(429).send(errorBody('RATE_LIMITED', 'Too many requests; retry later'));
    if (status >= 400 && status < 500) {
      const code =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 404
              ? 'NOT_FOUND'
              : 'VALIDATION_ERROR';
      return reply.status(status).send(errorBody(code, err.message));
    }
    if (status === 503 || isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply.status(503).send(errorBody('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', 'Internal server error'));
  });
}

export function useGovernanceNotFound(scope: FastifyInstance): void {
  scope.setNotFoundHandler((req, reply) =>
    reply.status(404).send(errorBody('NOT_FOUND', `Route ${req.method} ${req.url.split('?')[0]} not found`)),
  );
}
