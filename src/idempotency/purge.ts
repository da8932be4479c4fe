import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.js';
import type { JobHandler } from '../jobs/queue.js';
import { ensureSingletonJob } from '../jobs/repo.js';
import type { Clock } from '../lib/clock.js';
import { purgeExpiredKeys } from './repo.js';

export const PURGE_QUEUE = 'idempotency.purge';
/** Expired keys are already ignored by every request; the purge only gives their space back. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const PURGE_BATCH = 1_000;
/**
 * The purge is one job row for the whole deployment, whatever the number of instances: a fixed
 * id, so every instance starting up finds it instead of adding another.
 */
const PURGE_JOB_ID = '1d3e0a5b-7c1f-4f0e-9a55-1de3a0b5c1f4';

/** Deletes the expired keys in batches, then comes due again in PURGE_INTERVAL_MS (the same row). */
export function keyPurgeHandler(deps: { db: Db; clock: Clock; logger: FastifyBaseLogger }): JobHandler {
  return async () => {
    let purged = 0;
    for (;;) {
      const gone = await purgeExpiredKeys(deps.db, deps.clock.now(), PURGE_BATCH);
      purged += gone;
      if (gone < PURGE_BATCH) break;
    }
    if (purged > 0) deps.logger.info({ purged }, 'expired idempotency keys purged');
    return { retryAt: new Date(deps.clock.now().getTime() + PURGE_INTERVAL_MS) };
  };
}

/** The periodic purge of expired Idempotency-Keys: its handler, and its one job row if none exists yet. */
export const idempotencyKeyPurge: FastifyPluginAsync = fp(
  async (app) => {
    app.jobs.handle(PURGE_QUEUE, keyPurgeHandler({ db: app.db, clock: app.clock, logger: app.log }), { lane: 'housekeeping' });
    const now = app.clock.now();
    await ensureSingletonJob(app.db, {
      id: PURGE_JOB_ID,
      queue: PURGE_QUEUE,
      payload: {},
      runAt: new Date(now.getTime() + PURGE_INTERVAL_MS),
      now,
    });
  },
  { name: 'idempotency-key-purge' },
);
