import type { FastifyInstance } from 'fastify';
import { governanceErrors } from './errors.js';
import { createNotFoundHandler, useErrorFormat, type ErrorFormat } from '../plugins/error-handler.js';

/** `{error:{code,message}}`; a refused request names its first bad field in the message, 400. */
export const governanceErrorFormat: ErrorFormat = {
  body: ({ code, message }) => ({ error: { code, message } }),
  validation: { status: 400, issues: 'first' },
  rateLimitMessage: governanceErrors.rateLimited().message,
};

/**
 * Every error of the governance scopes, the framework's own included. The not-found answer is
 * set per path scope (useGovernanceNotFound): the governance API has no prefix of its own.
 */
export function useGovernanceErrors(scope: FastifyInstance): void {
  useErrorFormat(scope, governanceErrorFormat, { notFound: false });
}

export function useGovernanceNotFound(scope: FastifyInstance): void {
  scope.setNotFoundHandler(createNotFoundHandler(governanceErrorFormat));
}
