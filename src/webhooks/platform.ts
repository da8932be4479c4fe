import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DataKeys } from '../at-rest/data-keys.js';
import type { Config } from '../config.js';
import type { Db, DbOrTx } from '../db/client.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import type { Meter } from '../metrics/meter.js';
import { createDispatcher, DELIVERY_QUEUE, FANOUT_QUEUE } from './dispatcher.js';
import type { ConnectionPool } from './transport.js';
import { DEFAULT_POLICY, defaultDelaysMs } from './policy.js';
import { insertEvent } from './repo.js';
import { createWebhookService } from './service.js';
import { SERVICE_HMAC_SIGNER, serviceHmacSigner } from './signers.js';
import { checkTarget, parseTargetUrl, systemResolver, type Resolver } from './ssrf.js';
import type { SendOptions } from './transport.js';
import type { DeliveryPolicy, WebhookEventInput, WebhookPlatform, WebhookSigner } from './types.js';

export { FANOUT_QUEUE } from './dispatcher.js';

export interface WebhookPlatformDeps {
  db: Db;
  /** Seals and opens the endpoints' secrets (docs/operations.md, "Encryption at rest"). */
  dataKeys: DataKeys;
  /** Where attempts are started and ended (Database.bookkeeping); `db` when absent. */
  bookkeeping?: Db;
  clock: Clock;
  jobs: JobQueue;
  logger: FastifyBaseLogger;
  config: Pick<Config, 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_DELAYS_MS' | 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'>;
  /** Extra certificate authorities receivers may present (tests' self-signed receivers). */
  ca?: SendOptions['ca'];
  /** DNS for the SSRF guard; the system resolver by default. */
  resolve?: Resolver;
  random?: () => number;
  /** Where each attempt's outcome and duration are reported (docs/operations.md, "Metrics"). */
  meter?: Meter;
  /** Whether a profile exists (the profile service's answer): endpoints are registered for profiles only. */
  profileExists: (id: string) => Promise<boolean>;
}

/**
 * The process's one webhook platform: the outbox writers (`publish`, `sendDirect`), the
 * fan-out and delivery jobs, and the operator's service. Registered endpoints are signed
 * with `service-hmac` under the `default` policy; other services register their own.
 */
export function createWebhookPlatform(deps: WebhookPlatformDeps): WebhookPlatform & {
  signers: Map<string, WebhookSigner>;
  policies: Map<string, DeliveryPolicy>;
  /** The keep-alive connections to receivers; closed with the process. */
  connections: ConnectionPool;
} {
  const { clock, jobs, config } = deps;
  const signers = new Map<string, WebhookSigner>([[SERVICE_HMAC_SIGNER, serviceHmacSigner]]);
  const policies = new Map<string, DeliveryPolicy>([[DEFAULT_POLICY, { delaysMs: defaultDelaysMs, timeoutMs: config.WEBHOOK_TIMEOUT_MS }]]);
  const guard = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS, resolve: deps.resolve ?? systemResolver };
  const dispatcher = createDispatcher({
    ...deps,
    signers,
    policies,
    guard,
    schedule: { overrideDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS, timeoutMs: config.WEBHOOK_TIMEOUT_MS },
  });
  // Fan-out is a few quick statements: housekeeping. Deliveries wait on receivers: their own lane
  // (both set in src/jobs/kinds.ts).
  jobs.handle(FANOUT_QUEUE, dispatcher.fanOut);
  jobs.handle(DELIVERY_QUEUE, dispatcher.deliver);

  async function record(
    tx: DbOrTx,
    event: WebhookEventInput,
    direct?: { url: string; signer: string; policy: string },
  ): Promise<{ id: string }> {
    const id = randomUUID();
    const created = clock.now();
    const body = { id, type: event.type, created: created.toISOString(), data: event.data };
    await insertEvent(tx, {
      id,
      profileId: event.profileId,
      type: event.type,
      body,
      // Serialized once here; every attempt signs and sends these exact bytes.
      payload: JSON.stringify(body),
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
    connections: dispatcher.connections,
    publish: (tx, event) => record(tx, event),
    sendDirect: (tx, { url, signer, policy, ...event }) => {
      if (!signers.has(signer)) throw new Error(`unknown webhook signer ${signer}`);
      if (!policies.has(policy)) throw new Error(`unknown webhook policy ${policy}`);
      // The address is checked at every attempt; the shape can be refused right away.
      parseTargetUrl(url);
      return record(tx, event, { url, signer, policy });
    },
    checkUrl: async (url) => void (await checkTarget(url, guard)),
    registerSigner: (name, signer) => void signers.set(name, signer),
    registerPolicy: (name, policy) => void policies.set(name, policy),
    service: createWebhookService({
      db: deps.db,
      dataKeys: deps.dataKeys,
      clock,
      jobs,
      dispatcher,
      guard,
      profileExists: deps.profileExists,
    }),
  };
}
