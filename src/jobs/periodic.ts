import type { FastifyInstance } from 'fastify';
import { ensureSingletonJob } from './repo.js';

/**
 * A purge of the whole deployment that runs every `intervalMs`: one job row of a fixed id, which
 * every instance finds at its start instead of adding another, and which each run moves to its
 * next time. A run deletes in batches of `batch` until one comes back short.
 */
interface PeriodicPurge {
  queue: string;
  /** The row's id: a constant UUID of the purge's own. */
  id: string;
  intervalMs: number;
  batch: number;
  /** Deletes at most `limit` rows of what is due; answers how many. */
  deleteSome: (limit: number) => Promise<number>;
  /** The log message when a run deleted something (with `purged`, the count). */
  message: string;
}

export async function schedulePeriodicPurge(app: FastifyInstance, purge: PeriodicPurge): Promise<void> {
  app.jobs.handle(
    purge.queue,
    async () => {
      let purged = 0;
      for (;;) {
        const gone = await purge.deleteSome(purge.batch);
        purged += gone;
        if (gone < purge.batch) break;
      }
      if (purged > 0) app.log.info({ purged }, purge.message);
      return { retryAt: new Date(app.clock.now().getTime() + purge.intervalMs) };
    },
    { lane: 'housekeeping' },
  );
  const now = app.clock.now();
  await ensureSingletonJob(app.db, {
    id: purge.id,
    queue: purge.queue,
    payload: {},
    runAt: new Date(now.getTime() + purge.intervalMs),
    now,
  });
}
