import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { JobHandler } from './queue.js';
import { ensureSingletonJob, purgeFinishedJobs } from './repo.js';

export const JOB_PURGE_QUEUE = 'jobs.purge';
export const JOB_PURGE_INTERVAL_MS = 60 * 60 * 1000;
const JOB_PURGE_BATCH = 1_000;
/** One job row for the whole deployment, whatever the number of instances (see the idempotency purge). */
const JOB_PURGE_ID = '6f2c9d4e-3b8a-4c71-9e05-2a7d1f8b3c60';

/**
 * Deletes the jobs that ended (done or failed) more than `retentionMs` ago, in batches, then comes
 * due again in JOB_PURGE_INTERVAL_MS (the same row). What people look at stays where it was: a
 * delivery's attempts and state are rows of the webhook tables, a verification's outcome is the
 * verification's; a finished job row is the runner's bookkeeping only, and without this every
 * delivery attempt and pipeline run would leave one behind for good.
 */
export function jobPurgeHandler(deps: { db: Db; clock: Clock; logger: FastifyBaseLogger; retentionMs: number }): JobHandler {
  return async () => {
    const before = new Date(deps.clock.now().getTime() - deps.retentionMs);
    let purged = 0;
    for (;;) {
      const gone = await purgeFinishedJobs(deps.db, before, JOB_PURGE_BATCH);
      purged += gone;
      if (gone < JOB_PURGE_BATCH) break;
    }
    if (purged > 0) deps.logger.info({ purged }, 'finished jobs purged');
    return { retryAt: new Date(deps.clock.now().getTime() + JOB_PURGE_INTERVAL_MS) };
  };
}

const plugin: FastifyPluginAsync<{ retentionMs: number }> = async (app, opts) => {
  app.jobs.handle(JOB_PURGE_QUEUE, jobPurgeHandler({ db: app.db, clock: app.clock, logger: app.log, retentionMs: opts.retentionMs }), {
    lane: 'housekeeping',
  });
  const now = app.clock.now();
  await ensureSingletonJob(app.db, {
    id: JOB_PURGE_ID,
    queue: JOB_PURGE_QUEUE,
    payload: {},
    runAt: new Date(now.getTime() + JOB_PURGE_INTERVAL_MS),
    now,
  });
};

/** The periodic purge of finished jobs (JOBS_RETENTION_HOURS): its handler, and its one job row if none exists yet. */
export const finishedJobPurge = fp(plugin, { name: 'finished-job-purge' });
