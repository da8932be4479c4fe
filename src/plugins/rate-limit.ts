import rateLimit, { type errorResponseBuilderContext } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface RateLimit {
  /** Requests per minute per caller. */
  max: number;
  /** The counters' prefix in Redis, one per limit. */
  nameSpace: string;
  /** Who the caller is: a key's hash, or the client IP. */
  callerOf: (req: FastifyRequest) => string;
  /** The API's own 429, in its error format (Retry-After is set by the limiter). */
  refusal: (ctx: errorResponseBuilderContext) => Error;
  /**
   * When the request is counted. `before-auth`: first of the scope's onRequest hooks (call this
   * before the scope adds its auth hook), so a flood of guessed keys or tokens is limited too.
   * `after-auth`: as each route's own onRequest hook, which Fastify runs after the scope's, so
   * the limiter always sees a verified key.
   */
  counts: 'before-auth' | 'after-auth';
}

/**
 * The rate limit of one API scope (the `*_RATE_LIMIT_PER_MINUTE` settings): @fastify/rate-limit over a minute,
 * its counters in Redis when REDIS_URL is set (one limit across instances), in process memory
 * otherwise. A Redis outage must not take the APIs down with it: it fails open (and logs).
 */
export async function useRateLimit(scope: FastifyInstance, limit: RateLimit): Promise<void> {
  const global = limit.counts === 'after-auth';
  await scope.register(rateLimit, {
    global,
    timeWindow: 60_000,
    ...(scope.redis ? { redis: scope.redis } : {}),
    skipOnError: true,
    hook: 'onRequest',
    max: limit.max,
    nameSpace: limit.nameSpace,
    keyGenerator: limit.callerOf,
    errorResponseBuilder: (_req, ctx) => limit.refusal(ctx),
  });
  if (!global) scope.addHook('onRequest', scope.rateLimit());
}
