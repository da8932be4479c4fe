import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as s from '../schemas.js';
import { common, eventLoader, eventOf, failures, principal, seesAttendees, type RouteDeps } from './common.js';

/** An event's ticket types, orders and issued tickets; buyers and holders only with attendees:read. */
export const salesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service }) => {
  const loadEvent = eventLoader(service);

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
};
