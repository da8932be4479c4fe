import { IN_USE, keyOf, REUSED } from '../idempotency/rules.js';
import type { IdempotentApi } from '../idempotency/hooks.js';
import { IdentityError } from './errors.js';

/** The backend's verification operations (not the capture uploads, which have their own answer to a repeat), per identity key. */
export const identityIdempotency: IdempotentApi = {
  honours: (url) => url === '/v1/verifications' || url.startsWith('/v1/verifications/'),
  callerOf: (req) => keyOf(req.identityPrincipal),
  invalidKey: (message) => new IdentityError(422, message),
  keyReused: () => new IdentityError(422, REUSED),
  keyInUse: () => new IdentityError(409, IN_USE),
};
