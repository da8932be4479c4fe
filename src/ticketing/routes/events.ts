import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUuid } from '../../lib/uuid.js';
import { sendJsonText } from '../../plugins/serializer.js';
import * as s from '../schemas.js';
import { common, eventOf, failures, principal, type RouteDeps } from './common.js';

/** Events of the caller's profile (/api/v1/events); auth, plan, scope and rate limit run in plugin.ts. */
export const eventRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service }) => {
  // A change needs a DRAFT event: 404 and 409 answer before the body is parsed or validated.
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
      return sendJsonText(reply, 200, body);
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
      return sendJsonText(reply, 201, body);
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
    async (req, reply) => sendJsonText(reply, 200, req.ticketingEventJson!),
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
};
