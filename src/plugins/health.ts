import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rowsOf } from '../db/client.js';
import { migrationsFolder } from '../db/migrate.js';
import { securityOf } from './openapi-security.js';

/** A readiness probe must answer within the orchestrator's timeout even when the database hangs. */
const PING_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database ping timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** How many migrations this build ships: the database must have applied at least as many. */
function shippedMigrations(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * Liveness and readiness, outside every API prefix. Readiness asks the database on every call,
 * so it fails while the database is unreachable and recovers by itself when it returns.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const expected = shippedMigrations();

  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        tags: ['operations'],
        security: securityOf.none,
        summary: 'Liveness: the process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      schema: {
        operationId: 'ready',
        tags: ['operations'],
        security: securityOf.none,
        summary: 'Readiness: the database answers and is migrated',
        description:
          '503 while the database is unreachable (`unreachable`) or lacks migrations this build ships (`migrations pending`); it recovers without a restart.',
        response: {
          200: z.object({ status: z.literal('ready'), database: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable'), database: z.enum(['unreachable', 'migrations pending']) }),
        },
      },
    },
    async (req, reply) => {
      let applied: number;
      try {
        const result = await withTimeout(app.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`), PING_TIMEOUT_MS);
        applied = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
      } catch (err) {
        req.log.warn({ err }, 'readiness check failed: database unreachable');
        return reply.status(503).send({ status: 'unavailable' as const, database: 'unreachable' as const });
      }
      if (applied < expected) {
        req.log.warn({ applied, expected }, 'readiness check failed: migrations pending');
        return reply.status(503).send({ status: 'unavailable' as const, database: 'migrations pending' as const });
      }
      return { status: 'ready' as const, database: 'ok' as const };
    },
  );
};
