import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
    /** The exact envelope `{id, type, created, data}` every attempt sends. */
    body: jsonb('body').notNull(),
    /** Set for a direct delivery (identity's webhook_url); null for the profile's registered endpoints. */
    targetUrl: text('target_url'),
    signer: text('signer'),
    policy: text('policy'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('webhook_events_profile_idx').on(t.profileId, t.createdAt)],
);
