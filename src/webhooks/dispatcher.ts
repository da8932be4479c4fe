import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { rowsOf, type Db, type DbOrTx } from '../db/client.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema/webhooks.js';
import type { Job, JobOutcome, JobQueue } from '../jobs/queue.js';
import type { Clock } from '../lib/clock.js';
import { DEFAULT_POLICY, effectivePolicy, retryDelayMs, type ScheduleSettings } from './policy.js';
import { SERVICE_HMAC_SIGNER } from './signers.js';
import { checkTarget, WebhookTargetError, type GuardOptions } from './ssrf.js';
import { createConnectionPool, postWebhook, type ConnectionPool, type SendOptions, type SendResult } from './transport.js';
import type { DeliveryPolicy, WebhookSigner } from './types.js';

export const DELIVERY_QUEUE = 'webhooks.deliver';
export const USER_AGENT = 'PartnerServices-Webhooks/1.0';
/** Deliveries that end failed in a row before an endpoint is switched off. */
export const MAX_CONSECUTIVE_FAILURES = 50;
/** How long a rotated-out secret keeps signing. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
const INTERRUPTED = 'no answer recorded: the process stopped during this attempt';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  logger: Logger;
  signers: Map<string, WebhookSigner>;
  policies: Map<string, DeliveryPolicy>;
  schedule: ScheduleSettings;
  guard: GuardOptions;
  ca?: SendOptions['ca'];
  /** Keep-alive connections shared by all deliveries of the process; one per dispatcher by default. */
  connections?: ConnectionPool;
  random?: () => number;
}

/**
 * The concurrency key of a delivery's jobs: its endpoint, or the origin of a direct URL. At most
 * WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT deliveries per key run at once, and a key that keeps not
 * answering is paused (README, Operations).
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

/** The secrets that sign for an endpoint right now, newest first. */
export function liveSecrets(endpoint: EndpointRow, now: Date): string[] {
  const previousLive = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return previousLive ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** Fan-out and delivery: the two job handlers that move events from the outbox to receivers. */
export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, jobs, logger, signers, policies } = deps;
  const random = deps.random ?? Math.random;
  const connections = deps.connections ?? createConnectionPool({ ca: deps.ca });

  function policyOf(name: string): DeliveryPolicy {
    const policy = policies.get(name);
    if (!policy) throw new Error(`unknown webhook policy ${name}`);
    return effectivePolicy(policy, deps.schedule);
  }

  /** Adds one delivery and the job of its first attempt, in the caller's transaction. */
  async function createDelivery(
    tx: DbOrTx,
    eventId: string,
    target: { endpointId: string | null; url: string; signer: string; policy: string },
  ): Promise<string> {
    const id = randomUUID();
    const now = clock.now();
    const jobId = await jobs.enqueue(DELIVERY_QUEUE, { deliveryId: id }, { tx, runAt: now, key: deliveryKey(target) });
    await tx.insert(webhookDeliveries).values({
      id,
      eventId,
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
      const [event] = await tx.select().from(webhookEvents).where(eq(webhookEvents.id, job.payload.eventId));
      if (!event) return;
      const done = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, event.id))
        .limit(1);
      if (done.length > 0) return;
      if (event.targetUrl) {
        await createDelivery(tx, event.id, {
          endpointId: null,
          url: event.targetUrl,
          signer: event.signer ?? SERVICE_HMAC_SIGNER,
          policy: event.policy ?? DEFAULT_POLICY,
        });
        return;
      }
      const endpoints = await tx
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.profileId, event.profileId),
            isNull(webhookEndpoints.disabledAt),
            lte(webhookEndpoints.createdAt, event.createdAt),
            or(sql`cardinality(${webhookEndpoints.events}) = 0`, sql`${event.type} = any(${webhookEndpoints.events})`),
          ),
        );
      for (const endpoint of endpoints) {
        await createDelivery(tx, event.id, {
          endpointId: endpoint.id,
          url: endpoint.url,
          signer: SERVICE_HMAC_SIGNER,
          policy: DEFAULT_POLICY,
        });
      }
    });
  }

  /** Claims attempt number `attempt` so no other run sends it; false when someone already did. */
  async function claimAttempt(delivery: typeof webhookDeliveries.$inferSelect, attempt: number, now: Date): Promise<boolean> {
    // One statement (one round trip, atomic): the attempt row is written before sending, so if
    // the process dies mid-attempt the log says so and the job retries.
    const at = now.toISOString();
    const rows = rowsOf(
      await db.execute(sql`
        with claimed as (
          update webhook_deliveries set attempts = ${attempt}, max_attempts = ${Math.max(delivery.maxAttempts, attempt)}, updated_at = ${at}
          where id = ${delivery.id} and attempts = ${attempt - 1} and state = 'pending'
          returning id)
        insert into webhook_attempts (delivery_id, attempt, started_at, error)
        select id, ${attempt}, ${at}, ${INTERRUPTED} from claimed
        returning delivery_id`),
    );
    return rows.length > 0;
  }

  async function send(
    delivery: typeof webhookDeliveries.$inferSelect,
    event: typeof webhookEvents.$inferSelect,
    endpoint: EndpointRow | undefined,
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
    const now = clock.now();
    let signature: Record<string, string>;
    try {
      signature = signer.sign({
        eventId: event.id,
        timestampSec: Math.floor(now.getTime() / 1000),
        body: event.payload,
        secrets: endpoint ? liveSecrets(endpoint, now) : [],
      });
    } catch (err) {
      // Nothing unsigned ever leaves; the attempt counts as failed so the schedule still ends.
      return { error: `could not sign: ${err instanceof Error ? err.message : String(err)}`, durationMs: 0 };
    }
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'Service-Event-Id': event.id,
      'Service-Delivery-Id': delivery.id,
      'Service-Delivery-Attempt': String(attempt),
      ...signature,
    };
    return postWebhook(target, headers, event.payload, { timeoutMs: policy.timeoutMs, ca: deps.ca, connections });
  }

  async function deliver(job: Job<{ deliveryId: string }>): Promise<JobOutcome> {
    const [row] = await db
      .select({ delivery: webhookDeliveries, event: webhookEvents, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .leftJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, job.payload.deliveryId));
    const delivery = row?.delivery;
    if (!delivery || delivery.state !== 'pending') return;
    const event = row.event ?? undefined;
    const endpoint = row.endpoint ?? undefined;
    if (!event) return { fail: 'event not found' };
    if (endpoint?.disabledAt) {
      await db
        .update(webhookDeliveries)
        .set({ state: 'failed', lastError: 'endpoint disabled', nextAttemptAt: null, updatedAt: clock.now() })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.state, 'pending')));
      return;
    }
    // Misconfiguration throws before an attempt is claimed: the job waits and nothing is counted.
    const policy = policyOf(delivery.policy);
    const signer = signers.get(delivery.signer);
    if (!signer) throw new Error(`unknown webhook signer ${delivery.signer}`);
    const attempt = delivery.attempts + 1;
    if (!(await claimAttempt(delivery, attempt, clock.now()))) return;
    const result = await send(delivery, event, endpoint, attempt, policy, signer);
    return record(delivery, endpoint, attempt, policy, result);
  }

  async function record(
    delivery: typeof webhookDeliveries.$inferSelect,
    endpoint: EndpointRow | undefined,
    attempt: number,
    policy: DeliveryPolicy,
    result: SendResult,
  ): Promise<JobOutcome> {
    const now = clock.now();
    const { statusCode } = result;
    const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    const gone = statusCode === 410;
    const error = ok ? null : (result.error ?? `answered ${statusCode}`);
    const maxAttempts = Math.max(delivery.maxAttempts, attempt);
    let nextAttemptAt: Date | null = null;
    if (!ok && !gone && attempt < maxAttempts) {
      const delay = retryDelayMs(policy, attempt, random) ?? policy.delaysMs.at(-1) ?? 0;
      nextAttemptAt = new Date(now.getTime() + delay);
    }
    const state = ok ? 'succeeded' : nextAttemptAt ? 'pending' : 'failed';
    // An endpoint that did not answer at all pauses its key after a few in a row (jobs/queue.ts).
    const keyFailed = result.unanswered === true;
    if (ok || state === 'pending') {
      // The common cases in one statement: the attempt's answer, the delivery's state and, after
      // a success, the endpoint's failure count back to zero.
      const now8601 = now.toISOString();
      const resetEndpoint = ok && endpoint && endpoint.consecutiveFailures !== 0;
      await db.execute(sql`
        with answered as (
          update webhook_attempts set status_code = ${statusCode ?? null}, duration_ms = ${result.durationMs}, error = ${error}
          where delivery_id = ${delivery.id} and attempt = ${attempt}),
        delivery as (
          update webhook_deliveries set state = ${state}, last_status_code = ${statusCode ?? null}, last_error = ${error},
            next_attempt_at = ${nextAttemptAt?.toISOString() ?? null}, updated_at = ${now8601}
          where id = ${delivery.id})
        ${resetEndpoint ? sql`, endpoint as (update webhook_endpoints set consecutive_failures = 0 where id = ${endpoint.id})` : sql``}
        select 1`);
      logger.info(
        { deliveryId: delivery.id, eventId: delivery.eventId, attempt, statusCode, durationMs: result.durationMs, state },
        'webhook attempt',
      );
      return nextAttemptAt ? { retryAt: nextAttemptAt, error: error ?? undefined, keyFailed } : undefined;
    }
    await db.transaction(async (tx) => {
      await tx
        .update(webhookAttempts)
        .set({ statusCode: statusCode ?? null, durationMs: result.durationMs, error })
        .where(and(eq(webhookAttempts.deliveryId, delivery.id), eq(webhookAttempts.attempt, attempt)));
      await tx
        .update(webhookDeliveries)
        .set({ state, lastStatusCode: statusCode ?? null, lastError: error, nextAttemptAt, updatedAt: now })
        .where(eq(webhookDeliveries.id, delivery.id));
      if (!endpoint) return;
      if (ok) {
        await tx.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(eq(webhookEndpoints.id, endpoint.id));
      } else if (gone) {
        await disable(tx, endpoint.id, 'the endpoint answered 410 Gone', now);
      } else if (state === 'failed') {
        const [row] = await tx
          .update(webhookEndpoints)
          .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1` })
          .where(eq(webhookEndpoints.id, endpoint.id))
          .returning({ failures: webhookEndpoints.consecutiveFailures });
        if (row && row.failures >= MAX_CONSECUTIVE_FAILURES) {
          await disable(tx, endpoint.id, `${row.failures} deliveries in a row failed`, now);
        }
      }
    });
    logger.info(
      { deliveryId: delivery.id, eventId: delivery.eventId, attempt, statusCode, durationMs: result.durationMs, state },
      'webhook attempt',
    );
    return keyFailed ? { done: true, keyFailed } : undefined;
  }

  async function disable(tx: DbOrTx, endpointId: string, reason: string, now: Date): Promise<void> {
    await tx
      .update(webhookEndpoints)
      .set({ disabledAt: now, disabledReason: reason, updatedAt: now })
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)));
  }

  return { fanOut, deliver, createDelivery, connections };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
