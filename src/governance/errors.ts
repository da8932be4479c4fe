import type { FastifyInstance } from 'fastify';
import { ApiError, createNotFoundHandler, useErrorFormat, type ErrorFormat } from '../plugins/error-handler.js';

/** An error of the governance API: `{ "error": { "code", "message" } }` with its status. */
export class GovernanceError extends ApiError {}

/** The stable codes of the execution boundary, in the order they are checked (docs/governance.md, "Admit"). */
export const REJECTION_CODES = [
  'RECEIPT_REPLAYED',
  'SIGNATURE_INVALID',
  'RECEIPT_EXPIRED',
  'TIMESTAMP_OUT_OF_WINDOW',
  'NOT_ALLOWED',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

/** How admit answers each rejection: a consumed receipt conflicts; the rest are unprocessable. */
export const REJECTION_STATUS: Record<RejectionCode, number> = {
  RECEIPT_REPLAYED: 409,
  SIGNATURE_INVALID: 422,
  RECEIPT_EXPIRED: 422,
  TIMESTAMP_OUT_OF_WINDOW: 422,
  NOT_ALLOWED: 422,
};

const notFound = (what: string) => new GovernanceError(404, 'NOT_FOUND', `${what} not found`);

/** The governance error catalogue: every named code with its status, in one place. */
export const governanceErrors = {
  unauthorized: () => new GovernanceError(401, 'UNAUTHORIZED', 'A valid governance API key is required'),
  insufficientScope: (scope: string) => new GovernanceError(403, 'INSUFFICIENT_SCOPE', `This operation requires the ${scope} scope`),
  rateLimited: () => new GovernanceError(429, 'RATE_LIMITED', 'Too many requests; retry later'),
  /** A body the strict JSON reading refuses (src/governance/strict-json.ts). */
  unreadableBody: (message: string) => new GovernanceError(400, 'VALIDATION_ERROR', message),
  agentNotFound: () => notFound('Agent'),
  recordNotFound: () => notFound('Record'),
  carrierNotFound: () => notFound('Carrier'),
  delegationNotFound: () => notFound('Delegation'),
  agentIdReserved: (agentId: string) =>
    new GovernanceError(400, 'VALIDATION_ERROR', `agentId ${agentId} is reserved for the proof scenario`),
  agentExists: (agentId: string) => new GovernanceError(409, 'CONFLICT', `Agent ${agentId} already exists in this profile`),
  /** A proof the transparency log cannot give: a size beyond the current tree, or an inverted or empty range. */
  proofOutOfRange: (message: string) => new GovernanceError(422, 'PROOF_OUT_OF_RANGE', message),
  /** A record the execution boundary refuses, with the status its code has at admit. */
  rejected: (code: RejectionCode, message: string) => new GovernanceError(REJECTION_STATUS[code], code, message),
};

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
