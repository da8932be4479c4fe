import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { schedulePeriodicPurge } from '../jobs/periodic.js';
import { purgeExpiredKeys } from './repo.js';

export const PURGE_QUEUE = 'idempotency.purge';
/** Expired keys are already ignored by every request; the purge only gives their space back. */
export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** The periodic purge of expired Idempotency-Keys. */
const plugin: FastifyPluginAsync = async (app) =>
  schedulePeriodicPurge(app, {
    queue: PURGE_QUEUE,
    id: '1d3e0a5b-7c1f-4f0e-9a55-1de3a0b5c1f4',
    intervalMs: PURGE_INTERVAL_MS,
    batch: 1_000,
    deleteSome: (limit) => purgeExpiredKeys(app.db, app.clock.now(), limit),
    message: 'expired idempotency keys purged',
  });

export const idempotencyKeyPurge = fp(plugin, { name: 'idempotency-key-purge' });
