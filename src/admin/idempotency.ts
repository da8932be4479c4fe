import { envelopeErrors } from '../idempotency/rules.js';
import type { IdempotentApi } from '../idempotency/hooks.js';

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
