import type { FastifyInstance } from 'fastify';
import { codeForStatus, useErrorFormat, type ErrorFormat } from '../plugins/error-handler.js';
import { IdentityError, multipartError } from './errors.js';

/** Exactly `{detail}`; a refused request names its first bad field, 422. The multipart plugin's own limit errors are answered from the catalogue. */
export const identityErrorFormat: ErrorFormat = {
  body: ({ message }) => ({ detail: message }),
  validation: { status: 422, issues: 'first' },
  ownError: (err) => {
    const known = err instanceof IdentityError ? err : multipartError(err);
    return known ? { status: known.statusCode, code: codeForStatus(known.statusCode), message: known.detail } : undefined;
  },
};

/** Every error in this scope, the framework's own included, becomes exactly `{detail}`. */
export function useDetailErrors(scope: FastifyInstance): void {
  useErrorFormat(scope, identityErrorFormat);
}
