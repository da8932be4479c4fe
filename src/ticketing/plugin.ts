import type { FastifyPluginAsync } from 'fastify';
import type { KeyPrincipal } from '../auth/api-keys.js';
import { useKeyAuth } from '../auth/key-auth.js';
import { ticketingIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { useEnvelopeErrors } from '../plugins/envelope-errors.js';
import { routeNotFound } from '../plugins/error-handler.js';
import { useRateLimit } from '../plugins/rate-limit.js';
import { ticketingErrors as errors } from './errors.js';
import { doorRoutes } from './routes/door.js';
import { eventRoutes } from './routes/events.js';
import { salesRoutes } from './routes/sales.js';
import type { TicketingScope } from '../db/vocabulary.js';
import type { TicketingService } from './service.js';
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
export const ticketingApi: FastifyPluginAsync<{ ticketing: TicketingService }> = async (app, { ticketing: service }) => {
  useEnvelopeErrors(app);

  app.decorateRequest('ticketingPrincipal', null);
  app.decorateRequest('ticketingEvent', null);
  app.decorateRequest('ticketingEventJson', null);

  useKeyAuth(app, {
    service: 'ticketing',
    principal: 'ticketingPrincipal',
    braked: (sec) => errors.rateLimited(`${sec} seconds`),
    unauthenticated: () => errors.unauthorized(),
    // After the per-key rate limit: the contract answers 429 before 403.
    forbiddenIn: 'preParsing',
    forbidden: (principal, req) => {
      if (principal.plan !== 'ENTERPRISE') return errors.featureNotAvailable();
      const scope = req.routeOptions.config.ticketingScope;
      return scope && !principal.scopes.includes(scope) ? errors.insufficientScope(scope) : undefined;
    },
  });

  await useRateLimit(app, {
    max: app.config.TICKETING_RATE_LIMIT_PER_MINUTE,
    nameSpace: 'ticketing-rate-limit:',
    callerOf: (req) => req.ticketingPrincipal!.keyHash,
    refusal: (ctx) => errors.rateLimited(ctx.after),
    counts: 'after-auth',
  });

  useIdempotency(app, ticketingIdempotency);
  for (const routes of [eventRoutes, salesRoutes, doorRoutes]) await app.register(routes, { service });

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
