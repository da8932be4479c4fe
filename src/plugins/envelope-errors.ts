import type { FastifyInstance } from 'fastify';
import { ApiError, useErrorFormat, VALIDATION_MESSAGE, type ErrorDetail, type ErrorFormat } from './error-handler.js';

/** An error of the `{success:false, error:{code,message,details?}}` APIs (ticketing, operator). */
export class EnvelopeError extends ApiError {}

export const notFound = (what = 'Resource') => new EnvelopeError(404, 'NOT_FOUND', `${what} not found`);

export function validationError(details: ErrorDetail[]): EnvelopeError {
  return new EnvelopeError(400, 'VALIDATION_ERROR', VALIDATION_MESSAGE, details);
}

/** The error format of the ticketing and operator APIs: every refused field listed, 400. */
export const envelopeFormat: ErrorFormat = {
  body: ({ code, message, details }) => ({ success: false, error: { code, message, ...(details ? { details } : {}) } }),
  validation: { status: 400, issues: 'details' },
};

/** Maps every error in this scope, the framework's own included, to the envelope. */
export function useEnvelopeErrors(scope: FastifyInstance): void {
  useErrorFormat(scope, envelopeFormat);
}
