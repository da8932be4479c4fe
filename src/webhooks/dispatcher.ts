import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOK_SECRET_CONTEXT, type DataKeys } from '../at-rest/data-keys.js';
import type { Db, DbOrTx } from '../db/client.js';
import type { Job, JobName, JobOutcome, JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import { silentMeter, type Meter } from '../metrics/meter.js';
import { createGroupCommit } from '../lib/group-commit.js';
import { DEFAULT_POLICY, effectivePolicy, retryDelayMs, type ScheduleSettings } from './policy.js';
import * as repo from './repo.js';
import { SERVICE_HMAC_SIGNER } from './signers.js';
import { checkTarget, WebhookTargetError, type GuardOptions } from './ssrf.js';
import { createConnectionPool, postWebhook, type ConnectionPool, type SendOptions, type SendResult } from './transport.js';
import type { DeliveryPolicy, WebhookSigner } from './types.js';

/** The two kinds of webhook jobs (src/jobs/kinds.ts): an event to its deliveries, and one attempt of one delivery. */
export const FANOUT_QUEUE = 'webhooks.fanout' satisfies JobName;
export const DELIVERY_QUEUE = 'webhooks.deliver' satisfies JobName;
const USER_AGENT = 'PartnerServices-Webhooks/1.0';
export { MAX_CONSECUTIVE_FAILURES } from './repo.js';
/** Attempts started in one statement at most; more wait for the next. */
const MAX_STARTS_PER_STATEMENT = 64;
/** How long a rotated-out secret keeps signing. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

type Started = repo.StartedAttempt;

interface DispatcherDeps {
  db: Db;
  /** Opens the endpoints' secrets, sealed at rest (docs/operations.md, "Encryption at rest"). */
  dataKeys: DataKeys;
  /** Where attempts are started and ended (Database.bookkeeping); `db` when absent. */
  bookkeeping?: Db;
  clock: Clock;
  jobs: JobQueue;
  logger: FastifyBaseLogger;
  signers: Map<string, WebhookSigner>;
  policies: Map<string, DeliveryPolicy>;
  schedule: ScheduleSettings;
  guard: GuardOptions;
  ca?: SendOptions['ca'];
  /** Keep-alive connections shared by all deliveries of the process; one per dispatcher by default. */
  connections?: ConnectionPool;
  random?: () => number;
  meter?: Meter;
}

/**
 * The concurrency key of a delivery's jobs: its endpoint, or the origin of a direct URL. At most
 * WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT deliveries per key run at once, and a key that keeps not
 * answering is paused (docs/operations.md, Operations).
 */
export function deliveryKey(target: { endpointId: string | null; url: string }): string {
  if (target.endpointId) return `webhook-endpoint:${target.endpointId}`;
  let origin = target.url;
  try {
    origin = new URL(target.url).origin;
  } catch {
    // Unparseable URLs are refused at the attempt; the raw text still groups them.
  }
  return `webhook-url:${origin}`;
}

/** Fan-out and delivery: the two job handlers that move events from the outbox to receivers. */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, dataKeys, clock, jobs, logger, signers, policies } = deps;
  const books = deps.bookkeeping ?? db;
  const random = deps.random ?? Math.random;
  const meter = deps.meter ?? silentMeter;
  const connections = deps.connections ?? createConnectionPool({ ca: deps.ca });

  /**
   * Attempts start group-committed: the deliveries whose jobs were claimed together (or that
   * start while a batch is being written) load and claim their attempts in one statement. A
   * delivery asked for twice in one batch claims its attempt once; the second run finds it taken.
   */
  const starts = createGroupCommit<string, Started | undefined>(async (_all, ids) => {
    const started = await repo.startAttempts(books, ids, { signers: [...signers.keys()], policies: [...policies.keys()] }, clock.now());
    const seen = new Set<string>();
    return ids.map((id) => {
      const found = started.get(id);
      if (!found || !seen.has(id)) {
        seen.add(id);
        return found;
      }
      return { ...found, attempt: undefined };
    });
  }, MAX_STARTS_PER_STATEMENT);

  function policyOf(name: string): DeliveryPolicy {
    const policy = policies.get(name);
    if (!policy) throw new Error(`unknown webhook policy ${name}`);
    return effectivePolicy(policy, deps.schedule);
  }

  /** Adds one delivery and the job of its first attempt, in the caller's transaction. */
  async function createDelivery(
    tx: DbOrTx,
    event: { id: string; profileId: string },
    target: { endpointId: string | null; url: string; signer: string; policy: string },
  ): Promise<string> {
    const id = randomUUID();
    const now = clock.now();
    const jobId = await jobs.enqueue(DELIVERY_QUEUE, { deliveryId: id }, { tx, runAt: now, key: deliveryKey(target) });
    await repo.insertDelivery(tx, {
      id,
      eventId: event.id,
      profileId: event.profileId,
      ...target,
      state: 'pending',
      maxAttempts: policyOf(target.policy).delaysMs.length + 1,
      nextAttemptAt: now,
      jobId,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** One delivery per matching endpoint (or to the event's own URL); a rerun adds nothing. */
  async function fanOut(job: Job<{ eventId: string }>): Promise<JobOutcome> {
    await db.transaction(async (tx) => {
      const event = await repo.findEvent(tx, job.payload.eventId);
      if (!event || (await repo.hasDeliveries(tx, event.id))) return;
      if (event.targetUrl) {
        await createDelivery(tx, event, {
          endpointId: null,
          url: event.targetUrl,
          signer: event.signer ?? SERVICE_HMAC_SIGNER,
          policy: event.policy ?? DEFAULT_POLICY,
        });
        return;
      }
      for (const endpoint of await repo.endpointsFor(tx, event)) {
        await createDelivery(tx, event, {
          endpointId: endpoint.id,
          url: endpoint.url,
          signer: SERVICE_HMAC_SIGNER,
          policy: DEFAULT_POLICY,
        });
      }
    });
  }

  async function send(
    delivery: Started['delivery'],
    body: string,
    secrets: string[],
    attempt: number,
    policy: DeliveryPolicy,
    signer: WebhookSigner,
  ): Promise<SendResult> {
    let target;
    try {
      target = await checkTarget(delivery.url, deps.guard);
    } catch (err) {
      if (err instanceof WebhookTargetError) return { error: `refused: ${err.message}`, durationMs: 0 };
      throw err;
    }
    let signature: Record<string, string>;
    try {
      signature = signer.sign({ eventId: delivery.eventId, timestampSec: Math.floor(clock.now().getTime() / 1000), body, secrets });
    } catch (err) {
      // Nothing unsigned ever leaves; the attempt counts as failed so the schedule still ends.
      return { error: `could not sign: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0 };
    }
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'Service-Event-Id': delivery.eventId,
      'Service-Delivery-Id': delivery.id,
      'Service-Delivery-Attempt': String(attempt),
      ...signature,
    };
    return postWebhook(target, headers, body, { timeoutMs: policy.timeoutMs, ca: deps.ca, connections });
  }

  /**
   * One attempt in three statements, each shared with the attempts that run beside it: the
   * claim of the job, the delivery loaded with its attempt claimed (src/webhooks/repo.ts,
   * startAttempts), and the answer recorded with the job's end and its next run (the outcome's
   * writes, group-committed by the job runner).
   */
  async function deliver(job: Job<{ deliveryId: string }>): Promise<JobOutcome> {
    const started = await starts.add('', job.payload.deliveryId);
    if (!started || started.delivery.state !== 'pending') return;
    const { delivery, eventPayload, endpoint } = started;
    if (eventPayload === undefined) return { fail: 'event not found' };
    if (endpoint?.disabled) {
      await repo.failPendingDelivery(books, delivery.id, 'endpoint disabled', clock.now());
      return;
    }
    // Misconfiguration throws before an attempt is claimed (startAttempts claims only for known
    // names): the job waits and nothing is counted.
    const policy = policyOf(delivery.policy);
    const signer = signers.get(delivery.signer);
    if (!signer) throw new Error(`unknown webhook signer ${delivery.signer}`);
    // Another run took this attempt.
    if (started.attempt === undefined) return;
    const secrets = (endpoint?.secrets ?? []).map((s) => dataKeys.openText(WEBHOOK_SECRET_CONTEXT, s));
    const result = await send(delivery, eventPayload, secrets, started.attempt, policy, signer);
    return record(delivery, started.attempt, policy, result);
  }

  /** The attempt's answer and what comes next (done, a retry, or the end of the delivery), as the job's outcome. */
  function record(delivery: Started['delivery'], attempt: number, policy: DeliveryPolicy, result: SendResult): JobOutcome {
    const now = clock.now();
    const { statusCode } = result;
    const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    const gone = statusCode === 410;
    const error = ok ? null : (result.error ?? `answered ${statusCode}`);
    let nextAttemptAt: Date | null = null;
    if (!ok && !gone && attempt < Math.max(delivery.maxAttempts, attempt)) {
      const delay = retryDelayMs(policy, attempt, random) ?? policy.delaysMs.at(-1) ?? 0;
      nextAttemptAt = new Date(now.getTime() + delay);
    }
    const state = ok ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed';
    const effect: repo.EndpointEffect = ok
      ? { kind: 'succeeded' }
      : gone
        ? { kind: 'gone' }
        : state === 'failed'
          ? { kind: 'delivery-failed' }
          : { kind: 'none' };
    const writes = repo.attemptResultWrites(
      {
        deliveryId: delivery.id,
        attempt,
        statusCode: statusCode ?? null,
        durationMs: result.durationMs,
        error,
        response: result.response ?? null,
        state,
        nextAttemptAt,
        now,
      },
      delivery.endpointId,
      effect,
    );
    logger.info(
      { deliveryId: delivery.id, eventId: delivery.eventId, attempt, statusCode, durationMs: result.durationMs, state },
      'webhook attempt',
    );
    meter.webhookAttempt(ok ? 'delivered' : nextAttemptAt ? 'failed' : 'gave_up', result.durationMs / 1000);
    // An endpoint that did not answer at all pauses its key after a few in a row (src/jobs/repo.ts).
    const keyFailed = result.unanswered === true;
    if (nextAttemptAt) return { retryAt: nextAttemptAt, error: error ?? undefined, keyFailed, writes };
    return { done: true, keyFailed, writes };
  }

  return { fanOut, deliver, createDelivery, connections };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
