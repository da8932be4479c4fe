import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Liveness and readiness, outside every API prefix. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    schema: { operationId: 'health', tags: ['operations'], response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/ready', {
    schema: {
      operationId: 'ready',
      tags: ['operations'],
      response: {
        200: z.object({ status: z.literal('ready'), database: z.literal('ok') }),
        503: z.object({ status: z.literal('unavailable'), database: z.string() }),
      },
    },
  }, async (req, reply) => {
    try {
      await app.database.ping();
      return { status: 'ready' as const, database: 'ok' as const };
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed: database unreachable');
      return reply.status(503).send({ status: 'unavailable' as const, database: 'unreachable' });
    }
  });
};
