import type { FastifyRequest } from 'fastify';
import { envelopeErrors, keyOf } from '../idempotency/rules.js';
import type { IdempotentApi } from '../idempotency/hooks.js';

/** Every POST and PATCH of the Ticketing Partner API, per ticketing key. */
export const ticketingIdempotency: IdempotentApi = {
  honours: () => true,
  callerOf: (req: FastifyRequest) => keyOf(req.ticketingPrincipal),
  ...envelopeErrors,
};
