import type { FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../../auth/api-keys.js';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../schemas.js';
import type { TicketingService } from '../service.js';
import type { EventRow } from '../views.js';

/** What every ticketing route plugin is given by plugin.ts. */
export interface RouteDeps {
  service: TicketingService;
}

/** The error answers a route documents, each in the envelope. */
export const failures = (...statuses: number[]) => Object.fromEntries(statuses.map((code) => [code, s.errorEnvelope]));
export const common = { tags: ['ticketing'], security: securityOf.ticketing };

/** The caller's verified key: the auth hook of plugin.ts has set it before any route hook runs. */
export const principal = (req: FastifyRequest): KeyPrincipal => req.ticketingPrincipal!;
export const seesAttendees = (req: FastifyRequest) => principal(req).scopes.includes('attendees:read');
/** The path's event, loaded by `loadEvent` (or events.ts's draft check). */
export const eventOf = (req: FastifyRequest): EventRow => req.ticketingEvent!;

/** Record checks run before the body is parsed or validated: 404 and 409 answer whatever the body or query. */
export function eventLoader(service: TicketingService) {
  return async (req: FastifyRequest): Promise<void> => {
    const { eventId } = req.params as { eventId: string };
    req.ticketingEvent = await service.events.requireEvent(eventId, principal(req).profileId);
  };
}
