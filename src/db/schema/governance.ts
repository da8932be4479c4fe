import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { profiles, ts } from './core.js';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** An AI agent a profile governs: its declared mandate (action patterns) and approved behavioural baseline. */
export const governanceAgents = pgTable(
  'governance_agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    agentId: text('agent_id').notNull(),
    mandate: text('mandate').array().notNull(),
    baselineFingerprint: text('baseline_fingerprint').notNull(),
    baselineMaxDrift: doublePrecision('baseline_max_drift').notNull(),
    createdAt: ts('created_at').notNull(),
    /**
     * Bumped by triggers (migrations/0009) whenever the agent or one of its delegations
     * changes: a decision sealed from a cached copy of the agent is written only while the
     * version it read is still current (src/governance/chain.ts).
     */
    version: integer('version').notNull().default(1),
  },
  (t) => [unique('governance_agents_profile_agent').on(t.profileId, t.agentId)],
);

/** Authority delegated to an agent by a named grantor until expiresAt, unless revoked before. */
export const governanceDelegations = pgTable(
  'governance_delegations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    agentId: text('agent_id').notNull(),
    grantedBy: text('granted_by').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('governance_delegations_agent_idx').on(t.profileId, t.agentId)],
);

/** The head of a profile's record chain; its row is locked FOR UPDATE while a record is sealed. */
export const governanceChainHeads = pgTable('governance_chain_heads', {
  profileId: uuid('profile_id')
    .primaryKey()
    .references(() => profiles.id),
  seq: integer('seq').notNull(),
  headHash: text('head_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  /**
   * The transparency log's right edge at `seq` records: the roots of the perfect subtrees that
   * make up the Merkle tree, largest first, 32 bytes each (src/governance/merkle.ts). Sealing
   * extends it with no read of the tree; the root of the current tree is its fold.
   */
  treeFrontier: bytea('tree_frontier')
    .notNull()
    .default(sql`''::bytea`),
});

/** Sealed records, stored as their exact JCS bytes so the chain hash is reproducible. */
export const governanceRecords = pgTable(
  'governance_records',
  {
    recordId: uuid('record_id').primaryKey(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    executionId: uuid('execution_id').notNull().unique(),
    agentId: text('agent_id').notNull(),
    seq: integer('seq').notNull(),
    nonce: text('nonce').notNull().unique(),
    disposition: text('disposition', { enum: ['ALLOW', 'DENY', 'ESCALATE'] }).notNull(),
    canonical: text('canonical').notNull(),
    hash: text('hash').notNull(),
    /**
     * The Merkle tree hashes this record's leaf completes (src/governance/merkle.ts): its leaf
     * hash, then the root of each perfect subtree that ends with it, smallest first, 32 bytes each.
     * About two hashes per record; any proof reads O(log n) of them by (profile_id, seq).
     */
    treeHashes: bytea('tree_hashes').notNull(),
    issuedAt: ts('issued_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [unique('governance_records_profile_seq').on(t.profileId, t.seq)],
);

/** A consumed receipt: the primary key on the nonce lets exactly one admission win, across instances. */
export const governanceAdmissions = pgTable('governance_admissions', {
  nonce: text('nonce').primaryKey(),
  profileId: uuid('profile_id')
    .notNull()
    .references(() => profiles.id),
  recordId: uuid('record_id')
    .notNull()
    .references(() => governanceRecords.recordId),
  admittedAt: ts('admitted_at').notNull(),
});

/** Every presentation of a record at the execution boundary, admitted or rejected: the carrier's log. */
export const governanceDeliveries = pgTable(
  'governance_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: attempts within one millisecond still list in the order they happened. */
    position: bigserial('position', { mode: 'number' }).notNull(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    executionId: uuid('execution_id').notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    result: text('result').notNull(),
  },
  (t) => [index('governance_deliveries_execution_idx').on(t.executionId, t.attemptedAt)],
);

/**
 * The witnesses' cosignatures of the transparency log's checkpoints (docs/governance.md, "Witnesses"): one
 * per profile, witness (its name in LOG_WITNESSES) and tree size, the C2SP tlog-cosignature as
 * the witness returned it and verified against its key. A tree of a given size never changes, so
 * the checkpoint GET /v1/governance/log serves for that size carries these lines.
 */
export const governanceWitnessCosignatures = pgTable(
  'governance_witness_cosignatures',
  {
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    witness: text('witness').notNull(),
    treeSize: integer('tree_size').notNull(),
    /** The cosignature's own time (POSIX seconds), as signed. */
    cosignedAt: bigint('cosigned_at', { mode: 'number' }).notNull(),
    /** base64(key hash ‖ timestamp ‖ Ed25519 signature): the note signature line after the name. */
    signature: text('signature').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.witness, t.treeSize] })],
);
