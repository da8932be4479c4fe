import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import type { Clock } from '../lib/clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed authentications per client IP, shared by every API (docs/security.md, "Security"). */
    authBrake: AuthBrake;
  }
}

/**
 * A brake on guessing credentials: each client IP may fail authentication `limit` times per
 * window on any API, then every authenticated route answers 429 to it until the window ends.
 * It is asked before the key lookup, so a braked caller costs no database query.
 */
interface AuthBrake {
  /** Seconds until `ip` may try again; 0 while it may. */
  secondsBraked(ip: string): Promise<number>;
  /** Counts one failed authentication of `ip`. */
  failed(ip: string): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
}

const AUTH_BRAKE_WINDOW_MS = 60_000;
/** Distinct addresses each table of the in-process store keeps before it forgets the least recently seen. */
const MAX_ADDRESSES = 100_000;
const REDIS_PREFIX = 'auth-failures:';

// One round trip, and a counter never outlives its window even if the process dies between steps.
const COUNT_FAILURE = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n`;

/** Counters in Redis when REDIS_URL is set (one brake across instances), in process memory otherwise. */
export function createAuthBrake(opts: { limit: number; clock: Clock; redis?: Redis | undefined; log: Log }): AuthBrake {
  return opts.redis ? redisBrake(opts.redis, opts.limit, opts.log) : memoryBrake(opts.limit, opts.clock);
}

interface FailureWindow {
  failures: number;
  endsAt: number;
}

/**
 * Two bounded tables, each forgetting its least recently used address when full: the addresses
 * still counting and the braked ones. A flood of single failures from many addresses (an IPv6
 * block has plenty) only pushes the oldest counting entries out; a braked address stays braked
 * until its window ends, unless as many other addresses are braked after it, 30 failures each.
 */
function memoryBrake(limit: number, clock: Clock): AuthBrake {
  const counting = new LRUCache<string, FailureWindow>({ max: MAX_ADDRESSES });
  const braked = new LRUCache<string, FailureWindow>({ max: MAX_ADDRESSES });
  const live = (ip: string, now: number): FailureWindow | undefined => {
    const w = braked.get(ip) ?? counting.get(ip);
    if (w && w.endsAt <= now) {
      braked.delete(ip);
      counting.delete(ip);
      return undefined;
    }
    return w;
  };
  return {
    async secondsBraked(ip) {
      const now = clock.now().getTime();
      const w = live(ip, now);
      return w && w.failures >= limit ? Math.ceil((w.endsAt - now) / 1000) : 0;
    },
    async failed(ip) {
      const now = clock.now().getTime();
      const w = live(ip, now) ?? { failures: 0, endsAt: now + AUTH_BRAKE_WINDOW_MS };
      w.failures++;
      if (w.failures >= limit) {
        counting.delete(ip);
        braked.set(ip, w);
      } else {
        counting.set(ip, w);
      }
    },
  };
}

function redisBrake(redis: Redis, limit: number, log: Log): AuthBrake {
  // A Redis outage must not lock every caller out: fail open and log, as the rate limits do.
  const failOpen = (err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'auth brake: redis unavailable');
  return {
    async secondsBraked(ip) {
      try {
        const [[, failures], [, ttlMs]] = (await redis
          .multi()
          .get(REDIS_PREFIX + ip)
          .pttl(REDIS_PREFIX + ip)
          .exec()) as [[Error | null, string | null], [Error | null, number]];
        return Number(failures ?? 0) >= limit && ttlMs > 0 ? Math.ceil(ttlMs / 1000) : 0;
      } catch (err) {
        failOpen(err);
        return 0;
      }
    },
    async failed(ip) {
      try {
        await redis.eval(COUNT_FAILURE, 1, REDIS_PREFIX + ip, AUTH_BRAKE_WINDOW_MS);
      } catch (err) {
        failOpen(err);
      }
    },
  };
}

/**
 * The first step of an API's authentication: refuses a braked client IP with the API's own 429
 * (`refusal`), Retry-After set, before any key is looked up.
 */
export async function refuseBraked(
  brake: AuthBrake,
  req: { ip: string },
  reply: { header(name: string, value: string): unknown },
  refusal: (retryAfterSec: number) => Error,
): Promise<void> {
  const seconds = await brake.secondsBraked(req.ip);
  if (seconds === 0) return;
  reply.header('retry-after', String(seconds));
  throw refusal(seconds);
}
