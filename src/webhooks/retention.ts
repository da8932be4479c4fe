import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { schedulePeriodicPurge } from '../jobs/periodic.js';
import { purgeAttemptsBefore } from './repo.js';

export const ATTEMPT_PURGE_QUEUE = 'webhooks.attempts-purge';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The hourly purge of the delivery log's attempts older than WEBHOOK_LOG_RETENTION_DAYS (docs/operations.md,
 * "Retention"): each attempt keeps up to 1 KiB of the receiver's answer, and a deployment sends
 * attempts for as long as it runs. The deliveries keep their state, attempt count and last status.
 */
const plugin: FastifyPluginAsync<{ retentionDays: number; batch: number }> = async (app, { retentionDays, batch }) =>
  schedulePeriodicPurge(app, {
    queue: ATTEMPT_PURGE_QUEUE,
    id: '0b7e4f2a-9c3d-4e61-8a5f-3c2d1e0f9a84',
    intervalMs: 60 * 60 * 1000,
    batch,
    deleteSome: (limit) => purgeAttemptsBefore(app.db, new Date(app.clock.now().getTime() - retentionDays * DAY_MS), limit),
    message: 'webhook delivery attempts past their retention purged',
  });

export const deliveryLogRetention = fp(plugin, { name: 'delivery-log-retention' });
