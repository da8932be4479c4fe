import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../lib/uuid.js';
import { securityOf } from '../plugins/openapi-security.js';
import * as s from './schemas.js';
import type { TicketingService } from './service.js';
import type { EventRow } from './views.js';

const failures = (...statuses: number[]) => Object.fromEntries(statuses.map((code) => [code, s.errorEnvelope]));
const common = { tags: ['ticketing'], security: securityOf.ticketing };

/** The nine endpoints of the Ticketing Partner API; auth, plan, scope and rate limit run in plugin.ts. */
export const ticketingRoutes: FastifyPluginAsyncZod<{ service: TicketingService }> = async (app, { service }) => {
  const principal = (req: FastifyRequest) => req.ticketingPrincipal!;
  const seesAttendees = (req: FastifyRequest) => principal(req).scopes.includes('attendees:read');
  const eventOf = (req: FastifyRequest): EventRow => req.ticketingEvent!;

  // Record checks run before the body is parsed or validated: 404 and 409 answer whatever the body or query.
  const loadEvent = async (req: FastifyRequest) => {
    const { eventId } = req.params as { eventId: string };
    req.ticketingEvent = await service.events.requireEvent(eventId, principal(req).profileId);
  };
  const loadDraftEvent = async (req: FastifyRequest) => {
    const { eventId } = req.params as { eventId: string };
    req.ticketingEvent = await service.events.requireDraftEvent(eventId, principal(req).profileId);
  };

  app.get(
    '/events',
    {
      config: { ticketingScope: 'events:read' },
      schema: {
        ...common,
        operationId: 'listEvents',
        summary: 'Events of the profile, by startsAt ascending (id breaks ties)',
        querystring: s.eventListQuery,
        response: { 200: s.envelope(s.pageOf(s.event)), ...failures(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const { status, page, limit } = req.query;
      const body = await service.events.pageJson(principal(req).profileId, status, { page, limit });
      // Already the response's JSON, in the shape of the schema above: sent as it is.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.post(
    '/events',
    {
      config: { ticketingScope: 'events:write' },
      // placeId is a record reference: a venue of another profile or none answers 404 before any
      // 400. A valid body's venue is checked by the insert itself (one round trip); an invalid
      // one reaches the handler with its error, to look the venue up first.
      attachValidation: true,
      schema: {
        ...common,
        operationId: 'createEvent',
        summary: 'Creates a DRAFT event at one of the profile’s venues',
        description:
          'allDay is true only when the event starts and ends on local midnights of its time zone (UTC when none is given); imageUrl is null; city and timezone come from the body or are null (never from the venue); ticketMode defaults to SERVICE. A placeId that is not one of the caller’s venues is 404, checked before the rest of the body.',
        body: s.eventCreate,
        response: { 201: s.envelope(s.event), ...failures(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const { profileId } = principal(req);
      if (req.validationError) {
        const placeId = (req.body as { placeId?: unknown } | null)?.placeId;
        // Anything but a UUID string is the schema's 400 already.
        if (typeof placeId === 'string' && isUuid(placeId)) await service.events.requireOwnVenue(profileId, placeId);
        throw req.validationError;
      }
      const body = await service.events.createJson(profileId, req.body);
      // Already the response's JSON, in the shape of the schema above: sent as it is.
      return reply
        .status(201)
        .type('application/json; charset=utf-8')
        .send(body as never);
    },
  );

  app.get(
    '/events/:eventId',
    {
      config: { ticketingScope: 'events:read' },
      preParsing: async (req) => {
        const { eventId } = req.params as { eventId: string };
        req.ticketingEventJson = await service.events.requireEventJson(eventId, principal(req).profileId);
      },
      schema: {
        ...common,
        operationId: 'getEvent',
        summary: 'Get one event',
        params: s.eventParams,
        response: { 200: s.envelope(s.event), ...failures(401, 403, 404, 429) },
      },
    },
    // Already the response's JSON, in the shape of the schema above: sent as it is.
    async (req, reply) => reply.type('application/json; charset=utf-8').send(req.ticketingEventJson as never),
  );

  app.patch(
    '/events/:eventId',
    {
      config: { ticketingScope: 'events:write' },
      preParsing: loadDraftEvent,
      schema: {
        ...common,
        operationId: 'updateEvent',
        summary: 'Changes a DRAFT event',
        description:
          'Only DRAFT events change (409 EVENT_NOT_DRAFT otherwise, whatever the body). eventEndsAt must stay after eventStartsAt, the stored values included. placeId never changes. updatedAt moves on every successful change.',
        params: s.eventParams,
        body: s.eventUpdate,
        response: { 200: s.envelope(s.event), ...failures(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => ({ success: true as const, data: await service.events.update(principal(req).profileId, eventOf(req).id, req.body) }),
  );

  app.get(
    '/events/:eventId/ticket-types',
    {
      config: { ticketingScope: 'events:read' },
      preParsing: loadEvent,
      schema: {
        ...common,
        operationId: 'listTicketTypes',
        summary: 'Ticket types of an event',
        params: s.eventParams,
        response: { 200: s.envelope(z.object({ items: z.array(s.ticketType) })), ...failures(401, 403, 404, 429) },
      },
    },
    async (req) => ({ success: true as const, data: { items: await service.sales.listTicketTypes(eventOf(req).id) } }),
  );

  app.get(
    '/events/:eventId/orders',
    {
      config: { ticketingScope: 'orders:read' },
      preParsing: loadEvent,
      schema: {
        ...common,
        operationId: 'listEventOrders',
        summary: 'Orders of an event, newest first (id breaks ties); buyer only with attendees:read',
        description: 'status filters by exact value: PENDING, CONFIRMED, REFUNDED or CANCELLED (any other value matches nothing).',
        params: s.eventParams,
        querystring: s.orderListQuery,
        response: { 200: s.envelope(s.pageOf(s.order)), ...failures(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const { status, page, limit } = req.query;
      return { success: true as const, data: await service.sales.listOrders(eventOf(req).id, status, { page, limit }, seesAttendees(req)) };
    },
  );

  app.get(
    '/orders/:orderId',
    {
      config: { ticketingScope: 'orders:read' },
      schema: {
        ...common,
        operationId: 'getOrder',
        summary: 'Get one order',
        params: s.orderParams,
        response: { 200: s.envelope(s.order), ...failures(401, 403, 404, 429) },
      },
    },
    async (req) => ({
      success: true as const,
      data: await service.sales.getOrder(principal(req).profileId, req.params.orderId, seesAttendees(req)),
    }),
  );

  app.get(
    '/events/:eventId/tickets',
    {
      config: { ticketingScope: 'tickets:read' },
      preParsing: loadEvent,
      schema: {
        ...common,
        operationId: 'listEventTickets',
        summary: 'Issued tickets of the event’s CONFIRMED orders, oldest first (id breaks ties); holder only with attendees:read',
        params: s.eventParams,
        querystring: s.pageQuery,
        response: { 200: s.envelope(s.pageOf(s.issuedTicket)), ...failures(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const { page, limit } = req.query;
      return { success: true as const, data: await service.sales.listTickets(eventOf(req).id, { page, limit }, seesAttendees(req)) };
    },
  );

  app.get(
    '/events/:eventId/check-ins',
    {
      config: { ticketingScope: 'tickets:read' },
      preParsing: loadEvent,
      schema: {
        ...common,
        operationId: 'listEventCheckIns',
        summary: 'Door scans of the event, newest first (id breaks ties)',
        params: s.eventParams,
        querystring: s.pageQuery,
        response: { 200: s.envelope(s.pageOf(s.checkIn)), ...failures(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      const { page, limit } = req.query;
      return { success: true as const, data: await service.door.listCheckIns(eventOf(req).id, { page, limit }) };
    },
  );
};
