import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { schedulePeriodicPurge } from '../jobs/periodic.js';
import type { IdentityDeps } from './deps.js';
import * as repo from './repo.js';
import { eraseVerification } from './service.js';

export const RETENTION_QUEUE = 'identity.retention';
/** The audit actor of an erasure the profile's retention made (docs/operations.md, "Retention"). */
export const RETENTION_ACTOR = 'retention';

/**
 * Erases up to `limit` verifications past their profile's `identityRetentionDays`, each exactly
 * as DELETE /v1/verifications/{id} does, in a transaction of its own under the verification's
 * lock (a partner's erasure racing this one finds it erased). Answers how many it erased: one
 * that fails is logged and left for the next run, and a batch with a failure ends the run, so a
 * row that cannot be erased never spins the loop.
 */
export async function eraseExpiredVerifications(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'blobs'>,
  limit: number,
  log: { warn(obj: object, msg: string): void },
): Promise<number> {
  const due = await repo.verificationsPastRetention(deps.db, deps.clock.now(), limit);
  let erased = 0;
  for (const id of due) {
    try {
      await deps.db.transaction(async (tx) => {
        const v = await repo.lockVerification(tx, id);
        if (v && !v.erasedAt) await eraseVerification(tx, deps, v, RETENTION_ACTOR);
      });
      erased += 1;
    } catch (err) {
      log.warn({ err, verificationId: id }, 'retention could not erase a verification; the next run tries again');
    }
  }
  return erased;
}

/** The hourly erasure of decided verifications past their profile's retention, one instance at a time. */
const plugin: FastifyPluginAsync<{ batch: number }> = async (app, { batch }) =>
  schedulePeriodicPurge(app, {
    queue: RETENTION_QUEUE,
    id: '5a1c8e3f-2d4b-4f9a-b6e7-9d0c3b2a1f58',
    intervalMs: 60 * 60 * 1000,
    batch,
    deleteSome: (limit) => eraseExpiredVerifications({ db: app.db, clock: app.clock, blobs: app.blobs }, limit, app.log),
    message: 'verifications past their retention erased',
  });

export const identityRetention = fp(plugin, { name: 'identity-retention' });
