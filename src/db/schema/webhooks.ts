import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DELIVERY_STATES } from '../vocabulary.js';
import { profiles, ts } from './core.js';

/** The outbox: one row per event, written in the transaction of the change it announces. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    type: text('type').notNull(),
    /** The envelope `{id, type, created, data}` as data, for queries. */
    body: jsonb('body').notNull(),
    /** The same envelope serialized once: every attempt signs and sends exactly these bytes. */
    payload: text('payload').notNull(),
    /** Set for a direct delivery (identity's webhook_url); null for the profile's registered endpoints. */
    targetUrl: text('target_url'),
    signer: text('signer'),
    policy: text('policy'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhook_events_profile_idx').on(t.profileId, t.createdAt),
    // A verification's decision webhooks (direct deliveries only), found by its id when it is
    // erased and shown: entries only for identity's events, none for the profile's others.
    index('webhook_events_verification_idx')
      .on(sql`(${t.body}->'data'->>'verification_id')`)
      .where(sql`target_url is not null`),
  ],
);

/** A URL a profile registered to receive its events, with the secret(s) that sign them. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    url: text('url').notNull(),
    /** Event types this endpoint wants; empty means every type. */
    events: text('events')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    secret: text('secret').notNull(),
    /** The secret before the last rotation; it keeps signing until previousSecretExpiresAt. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    /** Deliveries that ended failed since the last success; at 50 the endpoint is disabled. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_profile_idx').on(t.profileId)],
);

/** One event on its way to one URL: a registered endpoint, or the event's own target URL. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    /** The event's profile, kept here so a profile's log is read from its own index (migration 0025). */
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    endpointId: uuid('endpoint_id').references(() => webhookEndpoints.id),
    url: text('url').notNull(),
    signer: text('signer').notNull(),
    policy: text('policy').notNull(),
    state: text('state', { enum: DELIVERY_STATES }).notNull(),
    /** Attempts made so far; the next one is number attempts + 1. */
    attempts: integer('attempts').notNull().default(0),
    /** The attempt budget: the policy's, or one more after an operator's redeliver. */
    maxAttempts: integer('max_attempts').notNull(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at'),
    /** The job that makes the next attempt (so a redeliver can bring it forward). */
    jobId: uuid('job_id'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_uq').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_state_idx').on(t.state, t.createdAt),
    // The operator's delivery log without a filter, newest first: a page read from the end.
    index('webhook_deliveries_created_idx').on(t.createdAt, t.id),
    // A profile's log, newest first, however many deliveries its profile or the others have.
    index('webhook_deliveries_profile_created_idx').on(t.profileId, t.createdAt, t.id),
  ],
);

/** Every attempt, as the operator sees it in the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer('attempt').notNull(),
    startedAt: ts('started_at').notNull(),
    durationMs: integer('duration_ms'),
    statusCode: integer('status_code'),
    error: text('error'),
    /**
     * The start of the receiver's answer body (src/webhooks/response-excerpt.ts: at most 1,024
     * characters); null when no answer came, and for attempts made before it was kept.
     */
    responseBody: text('response_body'),
    /** The answer's body went on past the excerpt (or was cut off); false without an answer. */
    responseBodyTruncated: boolean('response_body_truncated').notNull().default(false),
  },
  (t) => [
    uniqueIndex('webhook_attempts_delivery_attempt_uq').on(t.deliveryId, t.attempt),
    // The operator's last hour of attempts (GET /admin/v1/activity). Rows arrive in started_at
    // order, so a BRIN index (a few pages, one summary per range of blocks) finds them without
    // the cost a b-tree entry would add to every attempt.
    index('webhook_attempts_started_brin').using('brin', t.startedAt),
  ],
);
