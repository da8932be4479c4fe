import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { profiles } from '../db/schema/core.js';
import { jobs as jobsTable } from '../db/schema/jobs.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema/webhooks.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/crypto.js';
import { isUuid } from '../lib/uuid.js';
import { toIso, toIsoOrNull } from '../lib/time.js';
import { DELIVERY_QUEUE, deliveryKey, SECRET_OVERLAP_MS, type Dispatcher } from './dispatcher.js';
import { DEFAULT_POLICY } from './policy.js';
import { SERVICE_HMAC_SIGNER } from './signers.js';
import { checkTarget, WebhookTargetError, type GuardOptions } from './ssrf.js';
import { WebhookOperationError, type WebhookDeliveryView, type WebhookEndpointView, type WebhookOperations } from './types.js';

export const TEST_EVENT_TYPE = 'webhook.test';

export interface OperationsDeps {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  dispatcher: Dispatcher;
  guard: GuardOptions;
}

const newSecret = () => `whsec_${randomToken(32)}`;

function endpointView(row: typeof webhookEndpoints.$inferSelect): WebhookEndpointView {
  return {
    id: row.id,
    profileId: row.profileId,
    url: row.url,
    events: row.events,
    enabled: row.disabledAt === null,
    disabledAt: toIsoOrNull(row.disabledAt),
    disabledReason: row.disabledReason,
    createdAt: toIso(row.createdAt),
  };
}

/** Registration, rotation and the delivery log: what the operator does with webhooks. */
export function createWebhookOperations({ db, clock, jobs, dispatcher, guard }: OperationsDeps): WebhookOperations {
  async function loadEndpoint(id: string) {
    const [row] = isUuid(id) ? await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)) : [];
    if (!row) throw new WebhookOperationError('NOT_FOUND', 'Webhook endpoint not found');
    return row;
  }

  async function deliveryViews(rows: (typeof webhookDeliveries.$inferSelect & { eventType: string })[]): Promise<WebhookDeliveryView[]> {
    const ids = rows.map((r) => r.id);
    const attempts = ids.length
      ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.attempt))
      : [];
    return rows.map((r) => ({
      id: r.id,
      eventId: r.eventId,
      type: r.eventType,
      endpointId: r.endpointId,
      url: r.url,
      state: r.state,
      attemptCount: r.attempts,
      maxAttempts: r.maxAttempts,
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      nextAttemptAt: r.state === 'pending' ? toIsoOrNull(r.nextAttemptAt) : null,
      createdAt: toIso(r.createdAt),
      attempts: attempts
        .filter((a) => a.deliveryId === r.id)
        .map((a) => ({ attempt: a.attempt, at: toIso(a.startedAt), statusCode: a.statusCode, durationMs: a.durationMs, error: a.error })),
    }));
  }

  async function selectDeliveries(where: SQL | undefined, page = 1, limit = 1) {
    return db
      .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset((page - 1) * limit)
      .then((rows) => rows.map((r) => ({ ...r.delivery, eventType: r.eventType })));
  }

  async function getDelivery(id: string): Promise<WebhookDeliveryView> {
    const rows = isUuid(id) ? await selectDeliveries(eq(webhookDeliveries.id, id)) : [];
    if (rows.length === 0) throw new WebhookOperationError('NOT_FOUND', 'Webhook delivery not found');
    return (await deliveryViews(rows))[0]!;
  }

  return {
    async createEndpoint(profileId, input) {
      const [profile] = isUuid(profileId) ? await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)) : [];
      if (!profile) throw new WebhookOperationError('NOT_FOUND', 'Profile not found');
      try {
        await checkTarget(input.url, guard);
      } catch (err) {
        if (err instanceof WebhookTargetError) throw new WebhookOperationError('INVALID_URL', `url ${err.message}`);
        throw err;
      }
      const now = clock.now();
      const secret = newSecret();
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ profileId, url: input.url, events: [...new Set(input.events ?? [])], secret, createdAt: now, updatedAt: now })
        .returning();
      return { ...endpointView(row!), secret };
    },

    async listEndpoints(profileId) {
      const [profile] = isUuid(profileId) ? await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)) : [];
      if (!profile) throw new WebhookOperationError('NOT_FOUND', 'Profile not found');
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.profileId, profileId))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
      return rows.map(endpointView);
    },

    async setEndpointEnabled(endpointId, enabled) {
      const endpoint = await loadEndpoint(endpointId);
      const now = clock.now();
      const [row] = await db
        .update(webhookEndpoints)
        .set(
          enabled
            ? { disabledAt: null, disabledReason: null, consecutiveFailures: 0, updatedAt: now }
            : {
                disabledAt: endpoint.disabledAt ?? now,
                disabledReason: endpoint.disabledReason ?? 'disabled by the operator',
                updatedAt: now,
              },
        )
        .where(eq(webhookEndpoints.id, endpoint.id))
        .returning();
      return endpointView(row!);
    },

    async rotateSecret(endpointId) {
      const endpoint = await loadEndpoint(endpointId);
      const now = clock.now();
      const secret = newSecret();
      await db
        .update(webhookEndpoints)
        .set({
          secret,
          previousSecret: endpoint.secret,
          previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
          updatedAt: now,
        })
        .where(eq(webhookEndpoints.id, endpoint.id));
      return { secret };
    },

    async sendTestEvent(endpointId) {
      const endpoint = await loadEndpoint(endpointId);
      if (endpoint.disabledAt) throw new WebhookOperationError('ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first');
      const eventId = randomUUID();
      const created = clock.now();
      const body = { id: eventId, type: TEST_EVENT_TYPE, created: toIso(created), data: { endpointId: endpoint.id } };
      return db.transaction(async (tx) => {
        await tx.insert(webhookEvents).values({
          id: eventId,
          profileId: endpoint.profileId,
          type: TEST_EVENT_TYPE,
          body,
          payload: JSON.stringify(body),
          createdAt: created,
        });
        const deliveryId = await dispatcher.createDelivery(tx, eventId, {
          endpointId: endpoint.id,
          url: endpoint.url,
          signer: SERVICE_HMAC_SIGNER,
          policy: DEFAULT_POLICY,
        });
        return { eventId, deliveryId };
      });
    },

    async listDeliveries({ profileId, endpointId, eventId, state, page, limit }) {
      const conditions = [
        // Through the event, so a profile's direct deliveries (identity's webhook_url) count too.
        profileId
          ? inArray(
              webhookDeliveries.eventId,
              db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.profileId, profileId)),
            )
          : undefined,
        endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
        eventId ? eq(webhookDeliveries.eventId, eventId) : undefined,
        state ? eq(webhookDeliveries.state, state) : undefined,
      ].filter((c): c is SQL => c !== undefined);
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        selectDeliveries(where, page, limit),
        db.select({ n: count() }).from(webhookDeliveries).where(where),
      ]);
      return { items: await deliveryViews(rows), total: Number(total?.n ?? 0) };
    },

    getDelivery,

    async redeliver(deliveryId) {
      const current = await getDelivery(deliveryId);
      if (current.endpointId) {
        const endpoint = await loadEndpoint(current.endpointId);
        if (endpoint.disabledAt) throw new WebhookOperationError('ENDPOINT_DISABLED', 'The endpoint is disabled; enable it first');
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, current.id)).for('update');
        if (row!.state === 'pending' && row!.jobId) {
          // An attempt is already scheduled: bring it forward instead of racing it with a second job.
          await tx
            .update(jobsTable)
            .set({ runAt: now, updatedAt: now })
            .where(and(eq(jobsTable.id, row!.jobId), eq(jobsTable.state, 'pending')));
          await tx.update(webhookDeliveries).set({ nextAttemptAt: now, updatedAt: now }).where(eq(webhookDeliveries.id, row!.id));
          return;
        }
        const jobId = await jobs.enqueue(DELIVERY_QUEUE, { deliveryId: row!.id }, { tx, runAt: now, key: deliveryKey(row!) });
        await tx
          .update(webhookDeliveries)
          .set({ state: 'pending', maxAttempts: row!.attempts + 1, nextAttemptAt: now, jobId, updatedAt: now })
          .where(eq(webhookDeliveries.id, row!.id));
      });
      return getDelivery(current.id);
    },
  };
}
