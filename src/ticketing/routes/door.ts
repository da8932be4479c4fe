import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as s from '../schemas.js';
import { common, eventLoader, eventOf, failures, type RouteDeps } from './common.js';

/** The door scans of an event. */
export const doorRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service }) => {
  const loadEvent = eventLoader(service);

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
