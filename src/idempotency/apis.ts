import type { FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../auth/api-keys.js';
import { GovernanceError } from '../governance/errors.js';
import { IdentityError } from '../identity/errors.js';
import { EnvelopeError } from '../plugins/envelope-errors.js';
import type { IdempotentApi } from './hooks.js';

/** Messages shared by every API's format. */
const REUSED = 'This Idempotency-Key was already used with another request body; send a new key for a new request';
const IN_USE = 'The first request with this Idempotency-Key is still running; retry in a moment';

const keyOf = (principal: KeyPrincipal | null | undefined): string => {
  if (!principal) throw new Error('idempotency key read before authentication');
  return `key:${principal.keyId}`;
};

const envelopeErrors = {
  invalidKey: (message: string) =>
    new EnvelopeError(400, 'VALIDATION_ERROR', 'The request is not valid', [{ path: 'headers.idempotency-key', message }]),
  keyReused: () => new EnvelopeError(422, 'IDEMPOTENCY_KEY_REUSED', REUSED),
  keyInUse: () => new EnvelopeError(409, 'IDEMPOTENCY_KEY_IN_USE', IN_USE),
};

/** Every POST and PATCH of the Ticketing Partner API, per ticketing key. */
export const ticketingIdempotency: IdempotentApi = {
  honours: () => true,
  callerOf: (req: FastifyRequest) => keyOf(req.ticketingPrincipal),
  ...envelopeErrors,
};

/** The backend's verification operations (not the capture uploads, which have their own answer to a repeat), per identity key. */
export const identityIdempotency: IdempotentApi = {
  honours: (url) => url === '/v1/verifications' || url.startsWith('/v1/verifications/'),
  callerOf: (req) => keyOf(req.identityPrincipal),
  invalidKey: (message) => new IdentityError(422, message),
  keyReused: () => new IdentityError(422, REUSED),
  keyInUse: () => new IdentityError(409, IN_USE),
};

/** Sealing a decision, per governance key: a retried decision gets the record sealed the first time. */
export const governanceIdempotency: IdempotentApi = {
  honours: (url) => url === '/v1/governance/decisions',
  callerOf: (req) => keyOf(req.governancePrincipal),
  invalidKey: (message) => new GovernanceError(400, 'VALIDATION_ERROR', message),
  keyReused: () => new GovernanceError(422, 'IDEMPOTENCY_KEY_REUSED', REUSED),
  keyInUse: () => new GovernanceError(409, 'IDEMPOTENCY_KEY_IN_USE', IN_USE),
};

/**
 * The operator's order operations, where tickets are sold and refunded: a retried "place an
 * order" must not sell twice. The other operator operations are left out on purpose: some answer
 * a secret shown once (API keys, webhook secrets), which a kept answer would store.
 */
export const operatorIdempotency: IdempotentApi = {
  honours: (url) => /^\/admin\/v1\/(events\/:eventId\/orders|orders\/:orderId\/(pay|refund))$/.test(url),
  callerOf: () => 'operator',
  ...envelopeErrors,
};
