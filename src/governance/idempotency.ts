import { IN_USE, keyOf, REUSED } from '../idempotency/rules.js';
import type { IdempotentApi } from '../idempotency/hooks.js';
import { GovernanceError } from './errors.js';

/** Sealing a decision, per governance key: a retried decision gets the record sealed the first time. */
export const governanceIdempotency: IdempotentApi = {
  honours: (url) => url === '/v1/governance/decisions',
  callerOf: (req) => keyOf(req.governancePrincipal),
  invalidKey: (message) => new GovernanceError(400, 'VALIDATION_ERROR', message),
  keyReused: () => new GovernanceError(422, 'IDEMPOTENCY_KEY_REUSED', REUSED),
  keyInUse: () => new GovernanceError(409, 'IDEMPOTENCY_KEY_IN_USE', IN_USE),
};
