import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './core.js';

/**
 * Ed25519 keys of the process, one live key per purpose (governance records, attestations,
 * identity webhooks). Retired keys stay so old signatures keep verifying.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    purpose: text('purpose').notNull(),
    publicKey: text('public_key').notNull(),
    /** base64 of the 32-byte seed, sealed under the data key (`enc:…`, src/at-rest/envelope.ts); null when the key was configured from the environment. */
    seed: text('seed'),
    createdAt: ts('created_at').notNull(),
    retiredAt: ts('retired_at'),
  },
  (t) => [
    uniqueIndex('signing_keys_live_purpose')
      .on(t.purpose)
      .where(sql`retired_at is null`),
  ],
);
