import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { JobListener } from './types.js';

/** The channel the jobs_added trigger notifies (migrations/0003_jobs_slots.sql), with the queue as payload. */
const JOBS_CHANNEL = 'jobs_added';
const RECONNECT_MS = 1_000;

/**
 * Wakes the runner when a job commits. On PostgreSQL one dedicated connection LISTENs (a pool
 * client could be handed back and lose the subscription) and reconnects after losing its server;
 * on PGlite the notification is an in-process callback. Either way the poll stays as fallback.
 */
export function jobListener(database: Database, logger: FastifyBaseLogger): JobListener {
  if (database.kind === 'pglite') {
    return async (onAdded) => database.pglite!.listen(JOBS_CHANNEL, onAdded);
  }
  const connectionOptions = database.pool!.options;
  return async (onAdded) => {
    let closed = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ ...connectionOptions });
      client = c;
      c.on('notification', (msg) => {
        if (msg.channel === JOBS_CHANNEL && msg.payload) onAdded(msg.payload);
      });
      c.on('error', (err) => {
        logger.warn({ err: err.message }, 'job listener lost its connection; polling until it is back');
        void c.end().catch(() => {});
        if (!closed && !retry) {
          retry = setTimeout(() => {
            retry = undefined;
            if (!closed) connect().catch(() => c.emit('error', new Error('reconnect failed')));
          }, RECONNECT_MS);
          retry.unref();
        }
      });
      await c.connect();
      await c.query(`listen ${JOBS_CHANNEL}`);
    };
    await connect();
    return async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  };
}
