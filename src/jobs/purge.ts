import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { schedulePeriodicPurge } from './periodic.js';
import { purgeFinishedJobs } from './repo.js';

export const JOB_PURGE_QUEUE = 'jobs.purge';
export const JOB_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The hourly purge of the jobs that ended (done or failed) more than `retentionMs` ago
 * (JOBS_RETENTION_HOURS). What people look at stays where it was: a delivery's attempts and
 * state are rows of the webhook tables, a verification's outcome is the verification's; a
 * finished job's row is the runner's bookkeeping only, and without this every delivery attempt
 * and pipeline run would leave one behind for good.
 */
const plugin: FastifyPluginAsync<{ retentionMs: number }> = async (app, { retentionMs }) =>
  schedulePeriodicPurge(app, {
    queue: JOB_PURGE_QUEUE,
    id: '6f2c9d4e-3b8a-4c71-9e05-2a7d1f8b3c60',
    intervalMs: JOB_PURGE_INTERVAL_MS,
    batch: 1_000,
    deleteSome: (limit) => purgeFinishedJobs(app.db, new Date(app.clock.now().getTime() - retentionMs), limit),
    message: 'finished jobs purged',
  });

export const finishedJobPurge = fp(plugin, { name: 'finished-job-purge' });
