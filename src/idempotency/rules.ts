import type { KeyPrincipal } from '../auth/api-keys.js';
import { EnvelopeError } from '../plugins/envelope-errors.js';

/**
 * What every API's idempotency rules share; each API writes its own rules (which operations, whose
 * key, its error format) beside its plugin, which hands them to the mechanism (hooks.ts).
 */

/** Messages shared by every API's format. */
export const REUSED = 'This Idempotency-Key was already used with another request body; send a new key for a new request';
export const IN_USE = 'The first request with this Idempotency-Key is still running; retry in a moment';

/** The caller an answer is kept for: the authenticated key. */
export const keyOf = (principal: KeyPrincipal | null | undefined): string => {
  if (!principal) throw new Error('idempotency key read before authentication');
  return `key:${principal.keyId}`;
};

/** The refusals in the envelope format of the ticketing and operator APIs. */
export const envelopeErrors = {
  invalidKey: (message: string) =>
    new EnvelopeError(400, 'VALIDATION_ERROR', 'The request is not valid', [{ path: 'headers.idempotency-key', message }]),
  keyReused: () => new EnvelopeError(422, 'IDEMPOTENCY_KEY_REUSED', REUSED),
  keyInUse: () => new EnvelopeError(409, 'IDEMPOTENCY_KEY_IN_USE', IN_USE),
};
