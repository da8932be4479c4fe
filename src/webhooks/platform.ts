import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../db/client.js';
import { webhookEvents } from '../db/schema/webhooks.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import type { DeliveryPolicy, WebhookEventInput, WebhookPlatform, WebhookSigner } from './types.js';

export const FANOUT_QUEUE = 'webhooks.fanout';

export interface WebhookPlatformDeps {
  clock: Clock;
  jobs: JobQueue;
}

export function createWebhookPlatform({ clock, jobs }: WebhookPlatformDeps): WebhookPlatform & {
  signers: Map<string, WebhookSigner>;
  policies: Map<string, DeliveryPolicy>;
} {
  const signers = new Map<string, WebhookSigner>();
  const policies = new Map<string, DeliveryPolicy>();

  async function record(
    tx: DbOrTx,
    event: WebhookEventInput,
    direct?: { url: string; signer: string; policy: string },
  ): Promise<{ id: string }> {
    const id = randomUUID();
    const created = clock.now();
    await tx.insert(webhookEvents).values({
      id,
      profileId: event.profileId,
      type: event.type,
      body: { id, type: event.type, created: created.toISOString(), data: event.data },
      targetUrl: direct?.url ?? null,
      signer: direct?.signer ?? null,
      policy: direct?.policy ?? null,
      createdAt: created,
    });
    await jobs.enqueue(FANOUT_QUEUE, { eventId: id }, { tx });
    return { id };
  }

  return {
    signers,
    policies,
    publish: (tx, event) => record(tx, event),
    sendDirect: (tx, { url, signer, policy, ...event }) => {
      if (!signers.has(signer)) throw new Error(`unknown webhook signer ${signer}`);
      if (!policies.has(policy)) throw new Error(`unknown webhook policy ${policy}`);
      return record(tx, event, { url, signer, policy });
    },
    registerSigner: (name, signer) => void signers.set(name, signer),
    registerPolicy: (name, policy) => void policies.set(name, policy),
  };
}
