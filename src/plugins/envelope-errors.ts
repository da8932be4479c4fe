import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.js';

/** An error of the `{success:false, error:{code,message,details?}}` APIs (ticketing, operator). */
export class EnvelopeError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource') => new EnvelopeError(404, 'NOT_FOUND', `${what} not found`);

export function validationError(details: { path: string; message: string }[]): EnvelopeError {
  return new EnvelopeError(400, 'VALIDATION_ERROR', 'The request is not valid', details);
}

/** Maps every error in this scope, the framework's own included, to the envelope. */
export function useEnvelopeErrors(scope: FastifyInstance): void {
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof EnvelopeError) {
      return reply.status(err.statusCode).send({
        success: false,
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'invalid',
      }));
      return reply.status(400).send({
        success: false,
        error: { code: 'VALIDATION_ERROR', message: 'The request is not valid', details },
      });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ success: false, error: { code: 'RATE_LIMITED', message: err.message } });
    }
    if (status >= 400 && status < 500) {
      const code =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 404
              ? 'NOT_FOUND'
              : 'VALIDATION_ERROR';
      return reply.status(status).send({ success: false, error: { code, message: err.message } });
    }
    if (status === 503 || isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .send({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ success: false, error: { code: 'INTERNAL', message: 'Internal server error' } });
  });
  scope.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send({ success: false, error: { code: 'NOT_FOUND', message: `Route ${req.method} ${req.url.split('?')[0]} not found` } }),
  );
}
