import { randomUUID } from 'node:crypto';
import { WEBHOOK_SECRET_CONTEXT, type DataKeys } from '../at-rest/data-keys.js';
import type { Db } from '../db/client.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/crypto.js';
import { toIso } from '../lib/time.js';
import { DELIVERY_QUEUE, deliveryKey, SECRET_OVERLAP_MS, type Dispatcher } from './dispatcher.js';
import { deliveryNotFound, endpointDisabled, endpointNotFound, invalidUrl, profileNotFound } from './errors.js';
import { DEFAULT_POLICY } from './policy.js';
import * as repo from './repo.js';
import { SERVICE_HMAC_SIGNER } from './signers.js';
import { checkTarget, WebhookTargetError, type GuardOptions } from './ssrf.js';
import { DELIVERY_COUNT_CAP, type WebhookDeliveryView, type WebhookService } from './types.js';
import { deliveryDetailView, deliveryViews, endpointView } from './views.js';

const TEST_EVENT_TYPE = 'webhook.test';

interface WebhookServiceDeps {
  db: Db;
  /** Seals each endpoint's secret before it is stored (docs/operations.md, "Encryption at rest"). */
  dataKeys: DataKeys;
  clock: Clock;
  jobs: JobQueue;
  dispatcher: Dispatcher;
  guard: GuardOptions;
  /** Whether a profile exists: endpoints are registered for profiles only. */
  profileExists: (id: string) => Promise<boolean>;
}

const newSecret = () => `whsec_${randomToken(32)}`;

/** Registration, rotation and the delivery log: what the operator does with webhooks. Ids that are not UUIDs are simply not found (the repositories' lookups answer nothing for them). */
export function createWebhookService({ db, dataKeys, clock, jobs, dispatcher, guard, profileExists }: WebhookServiceDeps): WebhookService {
  async function loadEndpoint(id: string): Promise<repo.EndpointRow> {
    const row = await repo.findEndpoint(db, id);
    if (!row) throw endpointNotFound();
    return row;
  }

  async function requireProfile(id: string): Promise<void> {
    if (!(await profileExists(id))) throw profileNotFound();
  }

  async function views(rows: repo.LoggedDelivery[]): Promise<WebhookDeliveryView[]> {
    return deliveryViews(
      rows,
      await repo.attemptsOf(
        db,
        rows.map((r) => r.id),
      ),
    );
  }

  async function getDelivery(id: string): Promise<WebhookDeliveryView> {
    const rows = await repo.deliveryPage(db, { deliveryId: id }, 1, 1);
    const [view] = await views(rows);
    if (!view) throw deliveryNotFound();
    return view;
  }

  return {
    async createEndpoint(profileId, input) {
      await requireProfile(profileId);
      try {
        await checkTarget(input.url, guard);
      } catch (err) {
        if (err instanceof WebhookTargetError) throw invalidUrl(err.message);
        throw err;
      }
      const now = clock.now();
      const secret = newSecret();
      const row = await repo.insertEndpoint(db, {
        profileId,
        url: input.url,
        events: [...new Set(input.events ?? [])],
        secret: dataKeys.sealText(WEBHOOK_SECRET_CONTEXT, secret),
        createdAt: now,
        updatedAt: now,
      });
      return { ...endpointView(row), secret };
    },

    async listEndpoints(profileId) {
      await requireProfile(profileId);
      return (await repo.listEndpoints(db, profileId)).map(endpointView);
    },

    async setEndpointEnabled(endpointId, enabled) {
      const endpoint = await loadEndpoint(endpointId);
      const now = clock.now();
      const row = await repo.updateEndpoint(
        db,
        endpoint.id,
        enabled
          ? { disabledAt: null, disabledReason: null, consecutiveFailures: 0, updatedAt: now }
          : {
              disabledAt: endpoint.disabledAt ?? now,
              disabledReason: endpoint.disabledReason ?? 'disabled by the operator',
              updatedAt: now,
            },
      );
      if (!row) throw endpointNotFound();
      return endpointView(row);
    },

    async rotateSecret(endpointId) {
      const endpoint = await loadEndpoint(endpointId);
      const now = clock.now();
      const secret = newSecret();
      await repo.updateEndpoint(db, endpoint.id, {
        secret: dataKeys.sealText(WEBHOOK_SECRET_CONTEXT, secret),
        // Sealed for the same context as `secret`, so the envelope moves over as it is.
        previousSecret: endpoint.secret,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        updatedAt: now,
      });
      return { secret };
    },

    async sendTestEvent(endpointId) {
      const endpoint = await loadEndpoint(endpointId);
      if (endpoint.disabledAt) throw endpointDisabled();
      const eventId = randomUUID();
      const created = clock.now();
      const body = { id: eventId, type: TEST_EVENT_TYPE, created: toIso(created), data: { endpointId: endpoint.id } };
      return db.transaction(async (tx) => {
        await repo.insertEvent(tx, {
          id: eventId,
          profileId: endpoint.profileId,
          type: TEST_EVENT_TYPE,
          body,
          payload: JSON.stringify(body),
          createdAt: created,
        });
        const deliveryId = await dispatcher.createDelivery(
          tx,
          { id: eventId, profileId: endpoint.profileId },
          {
            endpointId: endpoint.id,
            url: endpoint.url,
            signer: SERVICE_HMAC_SIGNER,
            policy: DEFAULT_POLICY,
          },
        );
        return { eventId, deliveryId };
      });
    },

    async listDeliveries({ page, limit, ...filter }) {
      const [rows, counted] = await Promise.all([
        repo.deliveryPage(db, filter, page, limit),
        repo.countDeliveries(db, filter, DELIVERY_COUNT_CAP),
      ]);
      return { items: await views(rows), total: counted.total, totalCapped: counted.capped };
    },

    getDelivery,

    async deliveryDetail(deliveryId) {
      const view = await getDelivery(deliveryId);
      const event = await repo.findEvent(db, view.eventId);
      if (!event) throw deliveryNotFound();
      return deliveryDetailView(view, event.payload, await repo.answersOf(db, view.id));
    },

    async redeliver(deliveryId) {
      const current = await getDelivery(deliveryId);
      if (current.endpointId) {
        const endpoint = await loadEndpoint(current.endpointId);
        if (endpoint.disabledAt) throw endpointDisabled();
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const row = await repo.lockDelivery(tx, current.id);
        if (!row) throw deliveryNotFound();
        if (row.state === 'pending' && row.jobId) {
          // An attempt is already scheduled: bring it forward instead of racing it with a second job.
          await jobs.reschedule(row.jobId, now, { tx });
          await repo.updateDelivery(tx, row.id, { nextAttemptAt: now, updatedAt: now });
          return;
        }
        const jobId = await jobs.enqueue(DELIVERY_QUEUE, { deliveryId: row.id }, { tx, runAt: now, key: deliveryKey(row) });
        await repo.updateDelivery(tx, row.id, {
          state: 'pending',
          maxAttempts: row.attempts + 1,
          nextAttemptAt: now,
          jobId,
          updatedAt: now,
        });
      });
      return getDelivery(current.id);
    },
  };
}
