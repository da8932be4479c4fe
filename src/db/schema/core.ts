import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid, doublePrecision } from 'drizzle-orm/pg-core';
import { IDENTITY_ROLES, KEY_SERVICES, PLANS, REVIEW_POLICIES } from '../vocabulary.js';

export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** A profile is the tenant: every key, record and chain belongs to exactly one. */
export const profiles = pgTable('profiles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  plan: text('plan', { enum: PLANS }).notNull(),
  /** `four_eyes`: a manual review decision is final only when two reviewer keys agree. */
  reviewPolicy: text('review_policy', { enum: REVIEW_POLICIES }).notNull().default('single'),
  /** Days after its decision a decided verification is erased (docs/operations.md, "Retention"); null keeps it until erased. */
  identityRetentionDays: integer('identity_retention_days'),
  /** The privacy policy the hosted capture page links to before asking for consent (https); null when none was set. */
  privacyPolicyUrl: text('privacy_policy_url'),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

export const venues = pgTable(
  'venues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    timezone: text('timezone'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('venues_profile_idx').on(t.profileId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    service: text('service', { enum: KEY_SERVICES }).notNull(),
    scopes: text('scopes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    role: text('role', { enum: IDENTITY_ROLES }),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    /** The operator's name for the key (e.g. the reviewer who holds it); null when none was given. */
    name: text('name'),
    /**
     * The person who holds a reviewer key, in the operator's words: under four-eyes review two
     * keys of one holder count as one reviewer. Null: the key is its own holder.
     */
    holder: text('holder'),
    /** The key's last four characters, so a person can tell two keys apart; empty for keys issued before it was kept. */
    last4: text('last4').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    revokedAt: ts('revoked_at'),
    /** Written at most once a minute per key and off the request's path (src/auth/key-usage.ts). */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('api_keys_profile_idx').on(t.profileId)],
);
