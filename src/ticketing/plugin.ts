import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { bearerToken, findPrincipal, type KeyPrincipal } from '../auth/api-keys.js';
import { ticketingIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { useEnvelopeErrors } from '../plugins/envelope-errors.js';
import { routeNotFound } from '../plugins/error-handler.js';
import { rateLimitOptions } from '../plugins/rate-limit.js';
import { refuseBraked } from '../plugins/auth-brake.js';
import { ticketingErrors as errors } from './errors.js';
import { ticketingRoutes } from './routes.js';
import type { TicketingScope } from '../db/vocabulary.js';
import { createEventPageCache } from './page-cache.js';
import { createTicketingService } from './service.js';
import type { EventRow } from './views.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified ticketing key of the request (set by the auth hook of /api/v1). */
    ticketingPrincipal: KeyPrincipal | null;
    /** The path's event, loaded for the caller's profile before the body is read. */
    ticketingEvent: EventRow | null;
    /** GET /events/{id}'s answer, read for the caller's profile before the query is validated. */
    ticketingEventJson: string | null;
  }
  interface FastifyContextConfig {
    /** The scope a ticketing route requires. */
    ticketingScope?: TicketingScope;
  }
}

/**
 * The Ticketing Partner API scope (/api/v1). Checks run in the order the contract fixes, one
 * Fastify phase each: failed-authentication brake per IP (429) → key (onRequest, 401) → rate limit per key (route onRequest, 429) → plan
 * and scope (preParsing, 403) → the path's record (route preParsing, 404/409) → body and query
 * (validation, 400).
 */
export const ticketingApi: FastifyPluginAsync = async (app) => {
  useEnvelopeErrors(app);
  const service = createTicketingService({
    db: app.db,
    clock: app.clock,
    webhooks: app.webhooks,
    pages: createEventPageCache(app.config.EVENT_PAGE_CACHE_MB * 1024 * 1024),
  });

  app.decorateRequest('ticketingPrincipal', null);
  app.decorateRequest('ticketingEvent', null);
  app.decorateRequest('ticketingEventJson', null);

  app.addHook('onRequest', async (req, reply) => {
    await refuseBraked(app.authBrake, req, reply, (sec) => errors.rateLimited(`${sec} seconds`));
    const token = bearerToken(req.headers.authorization);
    const principal = token ? await findPrincipal(app.db, 'ticketing', token) : null;
    if (!principal) {
      await app.authBrake.failed(req.ip);
      throw errors.unauthorized();
    }
    req.ticketingPrincipal = principal;
  });

  // Route-level onRequest hooks run after the scope's, so the limiter always sees a verified key.
  await app.register(
    rateLimit,
    rateLimitOptions(app, {
      max: app.config.TICKETING_RATE_LIMIT_PER_MINUTE,
      nameSpace: 'ticketing-rate-limit:',
      keyGenerator: (req) => req.ticketingPrincipal!.keyHash,
      errorResponseBuilder: (_req, ctx) => errors.rateLimited(ctx.after),
    }),
  );

  app.addHook('preParsing', async (req) => {
    const principal = req.ticketingPrincipal!;
    if (principal.plan !== 'ENTERPRISE') throw errors.featureNotAvailable();
    const scope = req.routeOptions.config.ticketingScope;
    if (scope && !principal.scopes.includes(scope)) throw errors.insufficientScope(scope);
  });

  useIdempotency(app, ticketingIdempotency);
  await app.register(ticketingRoutes, { service });

  // Unknown paths under /api/v1 go through the same key, limit and plan checks as the real ones,
  // so every keyed answer carries the rate-limit headers, before their 404.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    schema: { hide: true },
    preParsing: async (req) => {
      throw routeNotFound(req);
    },
    handler: async () => undefined,
  });
};
