import { customType, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './core.js';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * One Idempotency-Key of one caller (docs/idempotency.md, "Idempotency-Key"): reserved while its first
 * request runs (owner and lease), then holding that request's answer until expires_at. The
 * primary key is what makes two instances receiving one key at the same moment run the
 * request once: only one insert wins.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Whose key: `key:<api key id>`, or `operator` for the operator token. */
    caller: text('caller').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request's query and canonical body: a reuse with another body is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** The reservation of the request now running; a new one when a crashed run's lease ran out. */
    owner: text('owner').notNull(),
    /** A running request is presumed dead after this (its process crashed), and the key may be taken again. */
    leaseUntil: ts('lease_until').notNull(),
    /** Null while the first request runs. */
    status: integer('status'),
    contentType: text('content_type'),
    body: bytea('body'),
    /** The record the kept answer concerns (a verification), so erasing the record deletes it. */
    subject: text('subject'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.caller, t.method, t.path, t.key] }),
    index('idempotency_keys_expiry_idx').on(t.expiresAt),
    index('idempotency_keys_subject_idx').on(t.subject),
  ],
);
