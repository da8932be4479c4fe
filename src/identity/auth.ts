import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { bearerToken, findPrincipal, type KeyPrincipal } from '../auth/api-keys.js';
import type { Db } from '../db/client.js';
import { identityErrors as errors } from './errors.js';

const principals = new WeakMap<FastifyRequest, KeyPrincipal>();

/** The onRequest hook of a backend or reviewer endpoint: 401 for a missing, malformed or unknown key, 403 for the other role. */
export function requireRole(db: Db, role: 'backend' | 'reviewer'): onRequestHookHandler {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) throw errors.apiKeyMissing();
    const principal = await findPrincipal(db, 'identity', token);
    if (!principal) throw errors.apiKeyInvalid();
    if (principal.role !== role) throw errors.wrongRole(role);
    principals.set(req, principal);
  };
}

export function principalOf(req: FastifyRequest): KeyPrincipal {
  const principal = principals.get(req);
  if (!principal) throw new Error('route without an identity auth hook');
  return principal;
}

/** The handoff token of a capture request, or null (the service answers 401). */
export function handoffTokenOf(req: FastifyRequest): string | null {
  return bearerToken(req.headers.authorization);
}
