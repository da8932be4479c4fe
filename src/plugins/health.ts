import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A readiness probe must answer within the orchestrator's timeout even when the database hangs. */
const PING_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database ping timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Liveness and readiness, outside every API prefix. Readiness asks the database on every call,
 * so it fails while the database is unreachable and recovers by itself when it returns.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    schema: { operationId: 'health', tags: ['operations'], summary: 'Liveness: the process is up', response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/ready', {
    schema: {
      operationId: 'ready',
      tags: ['operations'],
      summary: 'Readiness: the database answers and is migrated',
      description: '503 while the database is unreachable; it recovers without a restart when the database is back.',
      response: {
        200: z.object({ status: z.literal('ready'), database: z.literal('ok') }),
        503: z.object({ status: z.literal('unavailable'), database: z.string() }),
      },
    },
  }, async (req, reply) => {
    try {
      await withTimeout(app.database.ping(), PING_TIMEOUT_MS);
      return { status: 'ready' as const, database: 'ok' as const };
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed: database unreachable');
      return reply.status(503).send({ status: 'unavailable' as const, database: 'unreachable' });
    }
  });
};
