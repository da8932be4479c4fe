import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as s from '../../ticketing/schemas.js';
import type { OperatorRouteOptions } from '../services.js';
import type { EventRow } from '../../ticketing/views.js';

const failures = (...statuses: number[]) => Object.fromEntries(statuses.map((code) => [code, s.errorEnvelope]));
const tags = ['operator'];
const eventParams = s.eventParams;
const orderParams = s.orderParams;

/**
 * The dashboard's ticketing actions: ticket types, publishing and other event status changes,
 * orders with payment and refund, and door scans. Each change that partners hear about publishes
 * its webhook in the same transaction as the change.
 */
export const ticketingOperatorRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const { events, sales, door } = services.ticketing;

  // Actions without a body (publish, pay, …) must not fail when a client still sends a JSON content type.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
    body === '' ? done(null, undefined) : json(req, body as string, done),
  );

  const loaded = new WeakMap<FastifyRequest, EventRow>();
  // The event is looked up before the body is validated: an unknown event is 404 whatever the body.
  const loadEvent = async (req: FastifyRequest) => {
    loaded.set(req, await events.requireEvent((req.params as { eventId: string }).eventId));
  };
  const eventOf = (req: FastifyRequest) => loaded.get(req)!;

  app.post(
    '/events/:eventId/ticket-types',
    {
      preValidation: loadEvent,
      schema: {
        operationId: 'createTicketType',
        summary: 'Add a ticket type to an event',
        tags,
        description:
          'price is a decimal string in USD ("25.00"), stored as integer cents. partySize applies to TABLE ticket types only. isActive defaults to true. A CANCELLED or ARCHIVED event is 409 EVENT_NOT_ON_SALE.',
        params: eventParams,
        body: s.ticketTypeCreate,
        response: { 201: s.envelope(s.ticketType), ...failures(400, 401, 404, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true as const, data: await sales.createTicketType(eventOf(req), req.body) }),
  );

  app.post(
    '/events/:eventId/publish',
    {
      schema: {
        operationId: 'publishEvent',
        summary: 'Publish a DRAFT event',
        tags,
        description: 'DRAFT → ACTIVE (409 EVENT_NOT_DRAFT otherwise); publishes webhook event.published.',
        params: eventParams,
        response: { 200: s.envelope(s.event), ...failures(401, 404, 409) },
      },
    },
    async (req) => ({ success: true as const, data: await events.publish(req.params.eventId) }),
  );

  app.post(
    '/events/:eventId/cancel',
    {
      schema: {
        operationId: 'cancelEvent',
        summary: 'Cancel an event',
        tags,
        description: 'DRAFT, ACTIVE or INACTIVE → CANCELLED (409 INVALID_STATUS_TRANSITION otherwise); publishes webhook event.canceled.',
        params: eventParams,
        response: { 200: s.envelope(s.event), ...failures(401, 404, 409) },
      },
    },
    async (req) => ({ success: true as const, data: await events.cancel(req.params.eventId) }),
  );

  app.post(
    '/events/:eventId/status',
    {
      preValidation: loadEvent,
      schema: {
        operationId: 'changeEventStatus',
        summary: "Change an event's status",
        tags,
        description:
          'ACTIVE from DRAFT (a publish: webhook event.published) or INACTIVE; INACTIVE from DRAFT or ACTIVE; ARCHIVED from any status but ARCHIVED, which is final. Anything else, the same status included, is 409 INVALID_STATUS_TRANSITION.',
        params: eventParams,
        body: s.eventStatusChange,
        response: { 200: s.envelope(s.event), ...failures(400, 401, 404, 409) },
      },
    },
    async (req) => ({ success: true as const, data: await events.changeStatus(eventOf(req).id, req.body.status) }),
  );

  app.post(
    '/events/:eventId/orders',
    {
      preValidation: loadEvent,
      schema: {
        operationId: 'createOrder',
        summary: 'Place an order',
        tags,
        description:
          'status defaults to PENDING. Stock is counted at confirmation: an order created CONFIRMED takes its tickets from stock at once, issues its tickets and publishes order.paid; a PENDING order holds no stock (it is refused with 409 SOLD_OUT when it could not be paid now) and takes it when paid. Overselling is 409 SOLD_OUT and writes nothing. Unknown ticket types are 404; inactive ones 409 TICKET_TYPE_INACTIVE; past salesEndAt 409 SALES_ENDED; CANCELLED or ARCHIVED events 409 EVENT_NOT_ON_SALE.',
        params: eventParams,
        body: s.orderCreate,
        response: { 201: s.envelope(s.order), ...failures(400, 401, 404, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true as const, data: await sales.createOrder(eventOf(req), req.body) }),
  );

  app.post(
    '/orders/:orderId/pay',
    {
      schema: {
        operationId: 'payOrder',
        summary: 'Confirm an order as paid',
        tags,
        description:
          'PENDING → CONFIRMED (409 ORDER_NOT_PENDING otherwise). Takes the stock (409 SOLD_OUT, nothing changed, when too few are left) and issues the tickets: one per STANDARD unit, one per TABLE admitting its partySize. Publishes order.paid.',
        params: orderParams,
        response: { 200: s.envelope(s.order), ...failures(401, 404, 409) },
      },
    },
    async (req) => ({ success: true as const, data: await sales.payOrder(req.params.orderId) }),
  );

  app.post(
    '/orders/:orderId/refund',
    {
      schema: {
        operationId: 'refundOrder',
        summary: 'Refund an order',
        tags,
        description:
          'CONFIRMED → REFUNDED (409 ORDER_NOT_CONFIRMED otherwise). Voids the tickets, returns the stock and publishes order.refunded.',
        params: orderParams,
        response: { 200: s.envelope(s.order), ...failures(401, 404, 409) },
      },
    },
    async (req) => ({ success: true as const, data: await sales.refundOrder(req.params.orderId) }),
  );

  app.post(
    '/events/:eventId/check-ins',
    {
      preValidation: loadEvent,
      schema: {
        operationId: 'scanTicket',
        summary: 'Scan a ticket at the door',
        tags,
        description:
          'Records a door scan and answers its verdict: ALLOW (first entry; publishes ticket.checked_in), FLAG ALREADY_CHECKED_IN, or DENY with TICKET_REFUNDED, WRONG_EVENT or UNKNOWN_TICKET (orderId null).',
        params: eventParams,
        body: s.checkInScan,
        response: { 201: s.envelope(s.checkIn), ...failures(400, 401, 404) },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true as const, data: await door.scan(eventOf(req), req.body.ticketId) }),
  );
};
