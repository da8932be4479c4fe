import { ApiError } from '../plugins/error-handler.js';

/** An error of the governance API: `{ "error": { "code", "message" } }` with its status. */
export class GovernanceError extends ApiError {}

export const notFound = (what: string) => new GovernanceError(404, 'NOT_FOUND', `${what} not found`);
export const invalid = (message: string) => new GovernanceError(400, 'VALIDATION_ERROR', message);

/** The stable codes of the execution boundary, in the order they are checked (CONTRACT §4). */
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
