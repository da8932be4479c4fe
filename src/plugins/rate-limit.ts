import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';

/**
 * Options for @fastify/rate-limit shared by every API: counters live in Redis when REDIS_URL
 * is set (one limit across instances), in process memory otherwise. Register it inside an
 * API's own scope, after its auth hook, with that API's key and error body.
 */
export function rateLimitOptions(
  app: FastifyInstance,
  opts: Pick<RateLimitPluginOptions, 'max' | 'keyGenerator' | 'errorResponseBuilder' | 'hook' | 'addHeaders' | 'addHeadersOnExceeding'> & {
    nameSpace: string;
  },
): RateLimitPluginOptions {
  return {
    global: true,
    timeWindow: 60_000,
    ...(app.redis ? { redis: app.redis } : {}),
    // A Redis outage must not take the APIs down with it: fail open and log.
    skipOnError: true,
    hook: 'onRequest',
    ...opts,
  };
}
