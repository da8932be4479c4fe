import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyService } from '../db/vocabulary.js';
import { refuseBraked } from '../plugins/auth-brake.js';
import { bearerToken, findPrincipal } from './api-keys.js';
import type { KeyPrincipal } from './principal.js';

/** The request properties that hold an API's verified key (each API declares its own, null until verified). */
export type PrincipalSlot = {
  [K in keyof FastifyRequest]-?: [FastifyRequest[K]] extends [KeyPrincipal | null]
    ? [KeyPrincipal | null] extends [FastifyRequest[K]]
      ? K
      : never
    : never;
}[keyof FastifyRequest];

/** What makes one API's bearer-key authentication its own; the steps and their order are the same for every API. */
export interface KeyAuth {
  /** Whose keys are accepted: another service's key is as unknown as a made-up one. */
  service: KeyService;
  /** Where the verified key is kept for the routes, the rate limiter and the idempotency hooks. */
  principal: PrincipalSlot;
  /** Whether the request needs a key; without one its route authenticates in its own way, or not at all. Every request when absent. */
  keyed?(req: FastifyRequest): boolean;
  /** The API's 429 to an address braked for failed authentications (Retry-After is set already). */
  braked(retryAfterSec: number): Error;
  /** The API's 401: `token` is null when no well-formed `Bearer <key>` was given. */
  unauthenticated(token: string | null): Error;
  /** The API's 403 for a verified key that may not make this request (plan, scope, role); undefined when it may. */
  forbidden(principal: KeyPrincipal, req: FastifyRequest): Error | undefined;
  /**
   * When `forbidden` is asked: with the key (onRequest, the default), or after the route's
   * rate limit (preParsing), where an API's contract orders 429 before 403.
   */
  forbiddenIn?: 'onRequest' | 'preParsing';
}

/**
 * The bearer-key authentication of an API's scope, in the order every API shares: 429 while the
 * client IP is braked for failed authentications (before any lookup), 401 for a missing,
 * malformed or unknown key (counted on the brake), then the API's own 403. The key's use is
 * recorded by the lookup (src/auth/key-usage.ts). Add it before the scope's rate limiter when
 * the limiter counts per key: route hooks run after the scope's.
 */
export function useKeyAuth(scope: FastifyInstance, auth: KeyAuth): void {
  const { service, principal: slot, keyed, braked, unauthenticated, forbidden } = auth;
  const checkWithKey = auth.forbiddenIn !== 'preParsing';

  scope.addHook('onRequest', async (req, reply) => {
    if (keyed && !keyed(req)) return;
    await refuseBraked(scope.authBrake, req, reply, braked);
    const token = bearerToken(req.headers.authorization);
    const principal = token ? await findPrincipal(scope.db, service, token) : null;
    if (!principal) {
      await scope.authBrake.failed(req.ip);
      throw unauthenticated(token);
    }
    if (checkWithKey) {
      const refusal = forbidden(principal, req);
      if (refusal) throw refusal;
    }
    req[slot] = principal;
  });

  if (checkWithKey) return;
  scope.addHook('preParsing', async (req) => {
    const principal = req[slot];
    if (!principal) return;
    const refusal = forbidden(principal, req);
    if (refusal) throw refusal;
  });
}
