import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { rowsOf, type Db, type DbOrTx } from '../db/client.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../db/schema/webhooks.js';
import type { JobWrite, WriteKind } from '../jobs/queue.js';
import type { ResponseExcerpt } from './response-excerpt.js';
import type { DeliveryState } from './types.js';
import { isUuid } from '../lib/uuid.js';
import { DELIVERY_STATES } from '../db/vocabulary.js';

/**
 * The webhooks tables: the outbox (events), registered endpoints, deliveries and their
 * attempts. Every query of the webhook platform is here; the dispatcher and the service decide
 * what to run and own the transactions.
 */

export type EventRow = typeof webhookEvents.$inferSelect;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
/** A delivery as the log lists it: with its event's type. */
export type LoggedDelivery = DeliveryRow & { eventType: string };

// Outbox and fan-out

export async function insertEvent(tx: DbOrTx, event: typeof webhookEvents.$inferInsert): Promise<void> {
  await tx.insert(webhookEvents).values(event);
}

export async function findEvent(tx: DbOrTx, id: string): Promise<EventRow | undefined> {
  const [row] = await tx.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row;
}

/** Whether the event was fanned out already (a rerun of its fan-out adds nothing). */
export async function hasDeliveries(tx: DbOrTx, eventId: string): Promise<boolean> {
  const rows = await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).limit(1);
  return rows.length > 0;
}

/** The profile's enabled endpoints that existed when the event happened and want its type. */
export async function endpointsFor(tx: DbOrTx, event: EventRow): Promise<EndpointRow[]> {
  return tx
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
}

export async function insertDelivery(tx: DbOrTx, delivery: typeof webhookDeliveries.$inferInsert): Promise<void> {
  await tx.insert(webhookDeliveries).values(delivery);
}

// Attempts

/** Ends a pending delivery without an attempt (its endpoint was disabled meanwhile). */
export async function failPendingDelivery(db: DbOrTx, id: string, error: string, now: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ state: 'failed', lastError: error, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'pending')));
}

/** The text an attempt row carries until its answer is recorded. */
const INTERRUPTED = 'no answer recorded: the process stopped during this attempt';

const startedRow = z.object({
  id: z.string(),
  event_id: z.string(),
  endpoint_id: z.string().nullable(),
  url: z.string(),
  signer: z.string(),
  policy: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number(),
  max_attempts: z.number(),
  event_payload: z.string().nullable(),
  secret: z.string().nullable(),
  previous_secret: z.string().nullable(),
  endpoint_disabled: z.boolean().nullable(),
  claimed_attempt: z.number().nullable(),
});

/** A delivery as its next attempt finds it, and the attempt it claimed if it could. */
export interface StartedAttempt {
  delivery: Pick<DeliveryRow, 'id' | 'eventId' | 'endpointId' | 'url' | 'signer' | 'policy' | 'state' | 'maxAttempts'>;
  /** The exact bytes every attempt sends; undefined when the event is gone. */
  eventPayload: string | undefined;
  /** The registered endpoint's live secrets (newest first) and whether it is switched off; undefined for a direct URL. */
  endpoint: { secrets: string[]; disabled: boolean } | undefined;
  /** The attempt number claimed for this run; undefined when none was (see startAttempts). */
  attempt: number | undefined;
}

/**
 * Loads deliveries for their next attempts and claims those attempts, in one statement (one
 * round trip, atomic) for all of them: the deliveries whose jobs were claimed together start
 * together. An attempt is claimed only for a pending delivery whose event exists, whose endpoint
 * is on, with a signer and a policy this process knows; and only if no other run claimed it
 * first (the attempt count is still the one read). The attempt row is written before sending, so
 * if the process dies mid-attempt the log says so and the job retries. Answers by delivery id;
 * an id that names no delivery is absent.
 */
export async function startAttempts(
  db: Db,
  deliveryIds: string[],
  known: { signers: string[]; policies: string[] },
  now: Date,
): Promise<Map<string, StartedAttempt>> {
  const at = now.toISOString();
  const ids = deliveryIds.filter(isUuid);
  const started = new Map<string, StartedAttempt>();
  if (ids.length === 0) return started;
  // The ids, signers and policies are each bound as one array value, so a batch of any size is
  // one statement of the same text.
  const result = await db.execute(
    sql`
    with current as (
      select d.id, d.event_id, d.endpoint_id, d.url, d.signer, d.policy, d.state, d.attempts, d.max_attempts,
        e.payload as event_payload, ep.secret,
        case when ep.previous_secret_expires_at > ${at} then ep.previous_secret end as previous_secret,
        ep.disabled_at is not null as endpoint_disabled
      from webhook_deliveries d
      left join webhook_events e on e.id = d.event_id
      left join webhook_endpoints ep on ep.id = d.endpoint_id
      where d.id = any(${sql.param(ids)}::uuid[])),
    claimed as (
      update webhook_deliveries d
      set attempts = c.attempts + 1, max_attempts = greatest(c.max_attempts, c.attempts + 1), updated_at = ${at}
      from current c
      where d.id = c.id and d.state = 'pending' and d.attempts = c.attempts
        and c.event_payload is not null and c.endpoint_disabled is not true
        and c.signer = any(${sql.param(known.signers)}::text[]) and c.policy = any(${sql.param(known.policies)}::text[])
      returning d.id, d.attempts),
    logged as (
      insert into webhook_attempts (delivery_id, attempt, started_at, error)
      select id, attempts, ${at}, ${INTERRUPTED} from claimed)
    select current.*, claimed.attempts as claimed_attempt from current left join claimed on claimed.id = current.id`,
  );
  for (const raw of rowsOf(result)) {
    const row = startedRow.parse(raw);
    started.set(row.id, {
      delivery: {
        id: row.id,
        eventId: row.event_id,
        endpointId: row.endpoint_id,
        url: row.url,
        signer: row.signer,
        policy: row.policy,
        state: row.state,
        maxAttempts: row.max_attempts,
      },
      eventPayload: row.event_payload ?? undefined,
      endpoint:
        row.endpoint_id === null || row.secret === null
          ? undefined
          : {
              secrets: row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret],
              disabled: row.endpoint_disabled === true,
            },
      attempt: row.claimed_attempt ?? undefined,
    });
  }
  return started;
}

/** What one attempt got, and what it leaves the delivery in. */
interface AttemptResult {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the answer's body; null without an answer. */
  response: ResponseExcerpt | null;
  state: DeliveryState;
  nextAttemptAt: Date | null;
  now: Date;
}

/** Deliveries that end failed in a row before an endpoint is switched off. */
export const MAX_CONSECUTIVE_FAILURES = 50;

/** What an attempt's result does to its endpoint. */
export type EndpointEffect =
  | { kind: 'none' }
  /** An answer in time: the count of failed deliveries starts again. */
  | { kind: 'succeeded' }
  /** 410 Gone: the receiver asks for no more. */
  | { kind: 'gone' }
  /** The delivery ended failed: one more in a row, and at MAX_CONSECUTIVE_FAILURES the endpoint is off. */
  | { kind: 'delivery-failed' };

// The kinds of write that record attempts' results (attemptResultWrites).
const attemptLogged: WriteKind = {
  name: 'attempt_logged',
  columns: 'delivery_id uuid, attempt int, status_code int, duration_ms int, error text, response_body text, response_body_truncated bool',
  statement: (rows) => sql`update webhook_attempts a set status_code = r.status_code, duration_ms = r.duration_ms, error = r.error,
    response_body = r.response_body, response_body_truncated = r.response_body_truncated
    from ${rows} where a.delivery_id = r.delivery_id and a.attempt = r.attempt`,
  target: { table: 'webhook_attempts', columns: ['delivery_id', 'attempt'] },
};

const deliveryMoved: WriteKind = {
  name: 'delivery_moved',
  columns: 'id uuid, state text, status_code int, error text, next_attempt_at timestamptz, now timestamptz',
  statement: (rows) => sql`update webhook_deliveries d set state = r.state, last_status_code = r.status_code, last_error = r.error,
    next_attempt_at = r.next_attempt_at, updated_at = r.now
    from ${rows} where d.id = r.id`,
  target: { table: 'webhook_deliveries', columns: ['id'] },
};

const endpointAnswered: WriteKind = {
  name: 'endpoint_answered',
  columns: 'id uuid',
  statement: (rows) => sql`update webhook_endpoints ep set consecutive_failures = 0
    from ${rows} where ep.id = r.id and ep.consecutive_failures <> 0`,
  target: { table: 'webhook_endpoints', columns: ['id'] },
  // The busy endpoint's answers of one batch share a statement: each resets the count to 0.
  repeatable: true,
};

const endpointGone: WriteKind = {
  name: 'endpoint_gone',
  columns: 'id uuid, now timestamptz',
  statement: (
    rows,
  ) => sql`update webhook_endpoints ep set disabled_at = r.now, disabled_reason = 'the endpoint answered 410 Gone', updated_at = r.now
    from ${rows} where ep.id = r.id and ep.disabled_at is null`,
  target: { table: 'webhook_endpoints', columns: ['id'] },
};

// SET expressions read the row before the update: consecutive_failures + 1 is the new count.
const reached = sql.raw(`ep.consecutive_failures + 1 >= ${MAX_CONSECUTIVE_FAILURES} and ep.disabled_at is null`);
const endpointDeliveryFailed: WriteKind = {
  name: 'endpoint_delivery_failed',
  columns: 'id uuid, now timestamptz',
  statement: (rows) => sql`update webhook_endpoints ep set consecutive_failures = ep.consecutive_failures + 1,
    disabled_at = case when ${reached} then r.now else ep.disabled_at end,
    disabled_reason = case when ${reached} then (ep.consecutive_failures + 1) || ' deliveries in a row failed' else ep.disabled_reason end,
    updated_at = case when ${reached} then r.now else ep.updated_at end
    from ${rows} where ep.id = r.id`,
  target: { table: 'webhook_endpoints', columns: ['id'] },
};

const endpointWrite: Record<Exclude<EndpointEffect['kind'], 'none'>, WriteKind> = {
  succeeded: endpointAnswered,
  gone: endpointGone,
  'delivery-failed': endpointDeliveryFailed,
};

/**
 * What records an attempt's result, as kinds of write the job queue commits with the job's end
 * (JobOutcome.writes): the attempt's row in the log, the delivery's state, and the effect on
 * the endpoint. The results of attempts that end together share one statement per kind.
 */
export function attemptResultWrites(r: AttemptResult, endpointId: string | null, effect: EndpointEffect): JobWrite[] {
  const now = r.now.toISOString();
  const writes: JobWrite[] = [
    {
      kind: attemptLogged,
      row: {
        delivery_id: r.deliveryId,
        attempt: r.attempt,
        status_code: r.statusCode,
        duration_ms: r.durationMs,
        error: r.error,
        response_body: r.response?.body ?? null,
        response_body_truncated: r.response?.truncated ?? false,
      },
    },
    {
      kind: deliveryMoved,
      row: {
        id: r.deliveryId,
        state: r.state,
        status_code: r.statusCode,
        error: r.error,
        next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
        now,
      },
    },
  ];
  if (endpointId !== null && effect.kind !== 'none') writes.push({ kind: endpointWrite[effect.kind], row: { id: endpointId, now } });
  return writes;
}

// The operator's side: endpoints

export async function insertEndpoint(db: DbOrTx, endpoint: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(endpoint).returning();
  if (!row) throw new Error('the endpoint insert returned no row');
  return row;
}

export async function findEndpoint(db: DbOrTx, id: string): Promise<EndpointRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

export async function listEndpoints(db: DbOrTx, profileId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.profileId, profileId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function updateEndpoint(
  db: DbOrTx,
  id: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, id)).returning();
  return row;
}

// The operator's side: the delivery log

interface DeliveryFilter {
  profileId?: string;
  endpointId?: string;
  eventId?: string;
  deliveryId?: string;
  state?: DeliveryState;
}

function deliveryConditions(f: DeliveryFilter): SQL | undefined {
  const conditions = [
    // Every delivery of the profile's events, its direct ones (identity's webhook_url) included.
    f.profileId ? eq(webhookDeliveries.profileId, f.profileId) : undefined,
    f.endpointId ? eq(webhookDeliveries.endpointId, f.endpointId) : undefined,
    f.eventId ? eq(webhookDeliveries.eventId, f.eventId) : undefined,
    f.deliveryId ? eq(webhookDeliveries.id, f.deliveryId) : undefined,
    f.state ? eq(webhookDeliveries.state, f.state) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  return conditions.length ? and(...conditions) : undefined;
}

/** One page of the log, newest first. */
export async function deliveryPage(db: DbOrTx, f: DeliveryFilter, page: number, limit: number): Promise<LoggedDelivery[]> {
  if (f.deliveryId !== undefined && !isUuid(f.deliveryId)) return [];
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(deliveryConditions(f))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
    .offset((page - 1) * limit);
  return rows.map((r) => ({ ...r.delivery, eventType: r.eventType }));
}

/**
 * The deliveries the filter matches, counted up to `cap` and no further: the log of a whole
 * deployment holds millions, and an exact count reads every one of them on each page
 * (docs/benchmarks.md, "Data growth"). `capped` says there are more than `cap`.
 */
export async function countDeliveries(db: DbOrTx, f: DeliveryFilter, cap: number): Promise<{ total: number; capped: boolean }> {
  const matching = db
    .select({ one: sql`1` })
    .from(webhookDeliveries)
    .where(deliveryConditions(f))
    .limit(cap + 1)
    .as('matching');
  const [row] = await db.select({ n: count() }).from(matching);
  const n = Number(row?.n ?? 0);
  return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
}

/** An attempt as the log lists it: without the receiver's answer body (the delivery detail has it). */
export type LoggedAttempt = Omit<AttemptRow, 'responseBody' | 'responseBodyTruncated'>;

/** The attempts of these deliveries, in order, without the answers' bodies. */
export async function attemptsOf(db: DbOrTx, deliveryIds: string[]): Promise<LoggedAttempt[]> {
  if (deliveryIds.length === 0) return [];
  const { responseBody: _body, responseBodyTruncated: _truncated, ...columns } = getTableColumns(webhookAttempts);
  return db
    .select(columns)
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.attempt));
}

/** Each attempt's excerpt of the receiver's answer body, by attempt number (the delivery detail). */
export async function answersOf(db: DbOrTx, deliveryId: string): Promise<Map<number, ResponseExcerpt | null>> {
  const rows = await db
    .select({ attempt: webhookAttempts.attempt, body: webhookAttempts.responseBody, truncated: webhookAttempts.responseBodyTruncated })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId));
  return new Map(rows.map((r) => [r.attempt, r.body === null ? null : { body: r.body, truncated: r.truncated }]));
}

/** The delivery, locked for the rest of the transaction (a redeliver decides on its state). */
export async function lockDelivery(tx: DbOrTx, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).for('update');
  return row;
}

export async function updateDelivery(tx: DbOrTx, id: string, values: Partial<typeof webhookDeliveries.$inferInsert>): Promise<void> {
  await tx.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, id));
}

/**
 * Deletes up to `limit` delivery attempts started before `before`, their answers' excerpts with
 * them (WEBHOOK_LOG_RETENTION_DAYS); answers how many. The attempts arrive in started_at order,
 * so the BRIN index on it finds the oldest without a b-tree of its own.
 */
export async function purgeAttemptsBefore(db: Db, before: Date, limit: number): Promise<number> {
  const gone = await db.execute(sql`delete from webhook_attempts where id in (
      select id from webhook_attempts where started_at < ${before.toISOString()}::timestamptz limit ${limit})
    returning 1`);
  return rowsOf(gone).length;
}
