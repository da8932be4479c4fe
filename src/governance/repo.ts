import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type DbOrTx, type Tx } from '../db/client.js';
import { recordSet } from '../db/record-set.js';
import { prepared } from '../db/prepared.js';
import {
  governanceAdmissions,
  governanceAgents,
  governanceChainHeads,
  governanceDelegations,
  governanceDeliveries,
  governanceRecords,
} from '../db/schema/governance.js';
import { GENESIS_HASH } from '../lib/canonical-json.js';
import { isUuid } from '../lib/uuid.js';
import { splitHashes } from './merkle.js';

export type AgentRow = typeof governanceAgents.$inferSelect;
export type DelegationRow = typeof governanceDelegations.$inferSelect;
type RecordRow = typeof governanceRecords.$inferSelect;

export async function findAgent(db: DbOrTx, profileId: string, agentId: string): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(governanceAgents)
    .where(and(eq(governanceAgents.profileId, profileId), eq(governanceAgents.agentId, agentId)));
  return row;
}

/** Inserts an agent; undefined when the profile already has one with that id. */
export async function insertAgent(db: DbOrTx, values: typeof governanceAgents.$inferInsert): Promise<AgentRow | undefined> {
  const [row] = await db.insert(governanceAgents).values(values).onConflictDoNothing().returning();
  return row;
}

export async function delegationsOf(db: DbOrTx, profileId: string, agentId: string): Promise<DelegationRow[]> {
  return db
    .select()
    .from(governanceDelegations)
    .where(and(eq(governanceDelegations.profileId, profileId), eq(governanceDelegations.agentId, agentId)))
    .orderBy(desc(governanceDelegations.createdAt), desc(governanceDelegations.id));
}

/** A profile's agents, oldest first (the operator console's list). */
export async function agentsOfProfile(db: DbOrTx, profileId: string): Promise<AgentRow[]> {
  if (!isUuid(profileId)) return [];
  return db
    .select()
    .from(governanceAgents)
    .where(eq(governanceAgents.profileId, profileId))
    .orderBy(asc(governanceAgents.createdAt), asc(governanceAgents.id));
}

/** A profile's delegations to any of its agents, newest first (the operator console's list). */
export async function delegationsOfProfile(db: DbOrTx, profileId: string): Promise<DelegationRow[]> {
  if (!isUuid(profileId)) return [];
  return db
    .select()
    .from(governanceDelegations)
    .where(eq(governanceDelegations.profileId, profileId))
    .orderBy(desc(governanceDelegations.createdAt), desc(governanceDelegations.id));
}

export async function insertDelegation(db: DbOrTx, values: typeof governanceDelegations.$inferInsert): Promise<DelegationRow> {
  const [row] = await db.insert(governanceDelegations).values(values).returning();
  return row!;
}

/** Revokes delegation `id` (a second revocation keeps the first time); none for an unknown or non-UUID id. */
export async function revokeDelegation(db: DbOrTx, id: string, at: Date): Promise<DelegationRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(governanceDelegations)
    .set({ revokedAt: sql`coalesce(${governanceDelegations.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(governanceDelegations.id, id))
    .returning();
  return row;
}

/** What the gates read of a delegation. */
export type DelegationTerms = Pick<DelegationRow, 'id' | 'grantedBy' | 'expiresAt' | 'revokedAt'>;

/** An agent with every delegation it was given (newest first), as a decision reads them. */
export interface AgentTerms {
  agent: AgentRow;
  delegations: DelegationTerms[];
}

/** The agent's columns and its delegations as one JSON array (what both agent reads select). */
function selectAgentTerms(db: DbOrTx) {
  return db
    .select({
      agent: governanceAgents,
      // Qualified by hand: Drizzle leaves the columns of a one-table select unqualified.
      delegations: sql<{ id: string; grantedBy: string; expiresAt: string; revokedAt: string | null }[]>`(
        select coalesce(json_agg(json_build_object('id', d.id, 'grantedBy', d.granted_by, 'expiresAt', d.expires_at, 'revokedAt', d.revoked_at)
          order by d.created_at desc, d.id desc), '[]'::json)
        from governance_delegations d
        where d.profile_id = governance_agents.profile_id and d.agent_id = governance_agents.agent_id)`,
    })
    .from(governanceAgents);
}

function agentTermsOf(row: {
  agent: AgentRow;
  delegations: { id: string; grantedBy: string; expiresAt: string; revokedAt: string | null }[];
}): AgentTerms {
  // Inside JSON the times are ISO text; the gates compare instants.
  const delegations = row.delegations.map((t) => ({
    id: t.id,
    grantedBy: t.grantedBy,
    expiresAt: new Date(t.expiresAt),
    revokedAt: t.revokedAt === null ? null : new Date(t.revokedAt),
  }));
  return { agent: row.agent, delegations };
}

/**
 * The agent with its delegations, in one round trip; undefined when the profile has no such
 * agent. A named statement: it runs on every decision an instance has not cached the agent for,
 * so neither Drizzle nor PostgreSQL rebuilds it.
 */
export async function agentWithDelegations(db: DbOrTx, profileId: string, agentId: string): Promise<AgentTerms | undefined> {
  const statement = prepared(db, 'governance_agent_with_delegations', (name) =>
    selectAgentTerms(db)
      .where(and(eq(governanceAgents.profileId, sql.placeholder('profileId')), eq(governanceAgents.agentId, sql.placeholder('agentId'))))
      .prepare(name),
  );
  const [row] = await statement.execute({ profileId, agentId });
  return row ? agentTermsOf(row) : undefined;
}

/**
 * The profile's agents named, with their delegations, keyed by agent id (an unknown id is
 * absent). Their rows stay share-locked until the transaction ends: a delegation change of
 * any of them (which bumps the agent's version) waits for the records sealed from this read.
 */
export async function lockAgentTerms(tx: Tx, profileId: string, agentIds: string[]): Promise<Map<string, AgentTerms>> {
  const rows = await selectAgentTerms(tx)
    .where(and(eq(governanceAgents.profileId, profileId), inArray(governanceAgents.agentId, agentIds)))
    .for('share', { of: governanceAgents });
  return new Map(rows.map((row) => [row.agent.agentId, agentTermsOf(row)]));
}

/**
 * Where a profile's chain ends: the last record's seq and hash (seq 0 and the genesis hash
 * before the first), and the right edge of its Merkle tree (src/governance/merkle.ts).
 */
export interface ChainHead {
  seq: number;
  headHash: string;
  frontier: Buffer[];
}

/**
 * Locks the profile's chain head for the rest of the transaction (creating it at seq 0 on
 * first use), so concurrent sealers of one profile queue up here: no gaps, no forks, also
 * across instances sharing the database.
 */
export async function lockChainHead(tx: Tx, profileId: string, at: Date): Promise<ChainHead> {
  const lock = async () => {
    const [row] = await tx
      .select({ seq: governanceChainHeads.seq, headHash: governanceChainHeads.headHash, frontier: governanceChainHeads.treeFrontier })
      .from(governanceChainHeads)
      .where(eq(governanceChainHeads.profileId, profileId))
      .for('update');
    return row && { ...row, frontier: splitHashes(row.frontier) };
  };
  // A profile's first decision creates its head; racing first decisions meet at the unique key.
  const head = await lock();
  if (head) return head;
  await tx.insert(governanceChainHeads).values({ profileId, seq: 0, headHash: GENESIS_HASH, updatedAt: at }).onConflictDoNothing();
  return (await lock())!;
}

/** A sealed record as stored: its exact canonical text and hash, and the columns it is found by. */
type StoredRecord = Pick<
  RecordRow,
  'recordId' | 'executionId' | 'agentId' | 'seq' | 'nonce' | 'disposition' | 'canonical' | 'hash' | 'treeHashes' | 'expiresAt'
>;

/** The version of an agent's row that a decision was evaluated from (governance_agents.version). */
export interface AgentVersion {
  agentId: string;
  version: number;
}

/**
 * Appends sealed records to the profile's chain and moves its head to `to` (the last of them,
 * with the tree's new right edge), in one statement, but only while the head is still `from`
 * and every agent in `agents` is still at the version given: false, with nothing written, when another writer (another instance) moved
 * the head meanwhile or an agent or its delegations changed since the records were evaluated.
 * The head row's update decides: a writer holding it is waited for, and its new seq then no
 * longer matches. The records must continue `from` (seq from.seq + 1 on, the first one's
 * prev_hash from.headHash).
 */
export async function appendRecords(
  db: DbOrTx,
  profileId: string,
  from: ChainHead,
  to: ChainHead,
  records: StoredRecord[],
  agents: AgentVersion[],
  issuedAt: Date,
): Promise<boolean> {
  if (records.length === 0) return true;
  const at = issuedAt.toISOString();
  const rows = records.map((r) => ({
    record_id: r.recordId,
    execution_id: r.executionId,
    agent_id: r.agentId,
    seq: r.seq,
    nonce: r.nonce,
    disposition: r.disposition,
    canonical: r.canonical,
    hash: r.hash,
    tree_hashes: r.treeHashes.toString('hex'),
    expires_at: r.expiresAt.toISOString(),
  }));
  const versions = agents.map((a) => ({ agent_id: a.agentId, version: a.version }));
  const result = await db.execute(sql`
    with moved as (
      update ${governanceChainHeads}
      set seq = ${to.seq}, head_hash = ${to.headHash}, tree_frontier = decode(${Buffer.concat(to.frontier).toString('hex')}, 'hex'), updated_at = ${at}::timestamptz
      where profile_id = ${profileId} and seq = ${from.seq} and head_hash = ${from.headHash}
        and not exists (
          select from ${recordSet(versions, 'agent_id text, version int', 'v')}
          where not exists (
            select from ${governanceAgents} a where a.profile_id = ${profileId} and a.agent_id = v.agent_id and a.version = v.version))
      returning profile_id)
    insert into ${governanceRecords} (record_id, profile_id, execution_id, agent_id, seq, nonce, disposition, canonical, hash, tree_hashes, issued_at, expires_at)
    select r.record_id, moved.profile_id, r.execution_id, r.agent_id, r.seq, r.nonce, r.disposition, r.canonical, r.hash, decode(r.tree_hashes, 'hex'), ${at}::timestamptz, r.expires_at
    from moved, ${recordSet(rows, 'record_id uuid, execution_id uuid, agent_id text, seq int, nonce text, disposition text, canonical text, hash text, tree_hashes text, expires_at timestamptz')}
    returning record_id`);
  return rowsOf(result).length === records.length;
}

export async function findRecord(
  db: DbOrTx,
  where: { recordId?: string; executionId?: string; profileId?: string },
): Promise<RecordRow | undefined> {
  if ([where.recordId, where.executionId].some((id) => id !== undefined && !isUuid(id))) return undefined;
  const conditions = [
    where.recordId ? eq(governanceRecords.recordId, where.recordId) : undefined,
    where.executionId ? eq(governanceRecords.executionId, where.executionId) : undefined,
    where.profileId ? eq(governanceRecords.profileId, where.profileId) : undefined,
  ].filter((c) => c !== undefined);
  const [row] = await db
    .select()
    .from(governanceRecords)
    .where(and(...conditions));
  return row;
}

/** A profile's records after `afterSeq` in seq order, as stored (canonical JCS text), at most `limit`. */
export async function recordsAfter(
  db: DbOrTx,
  profileId: string,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; canonical: string }[]> {
  return db
    .select({ seq: governanceRecords.seq, canonical: governanceRecords.canonical })
    .from(governanceRecords)
    .where(and(eq(governanceRecords.profileId, profileId), gt(governanceRecords.seq, afterSeq)))
    .orderBy(asc(governanceRecords.seq))
    .limit(limit);
}

/**
 * A stored record's place in its chain, with the hash of the record before it, in one round
 * trip and without reading the records themselves (public verify runs this per call).
 */
export async function findChainLink(
  db: DbOrTx,
  recordId: string,
): Promise<{ seq: number; hash: string; previousHash: string | null } | undefined> {
  if (!isUuid(recordId)) return undefined;
  const statement = prepared(db, 'governance_chain_link', (name) => {
    const previous = alias(governanceRecords, 'previous');
    return db
      .select({ seq: governanceRecords.seq, hash: governanceRecords.hash, previousHash: previous.hash })
      .from(governanceRecords)
      .leftJoin(previous, and(eq(previous.profileId, governanceRecords.profileId), eq(previous.seq, sql`${governanceRecords.seq} - 1`)))
      .where(eq(governanceRecords.recordId, sql.placeholder('recordId')))
      .prepare(name);
  });
  const [row] = await statement.execute({ recordId });
  return row;
}

export async function isNonceConsumed(db: DbOrTx, profileId: string, nonce: string): Promise<boolean> {
  const rows = await db
    .select({ nonce: governanceAdmissions.nonce })
    .from(governanceAdmissions)
    .where(and(eq(governanceAdmissions.nonce, nonce), eq(governanceAdmissions.profileId, profileId)));
  return rows.length > 0;
}

/** Consumes a receipt's nonce; false when it was already consumed (the unique key decides races). */
export async function consumeNonce(tx: DbOrTx, values: typeof governanceAdmissions.$inferInsert): Promise<boolean> {
  const rows = await tx.insert(governanceAdmissions).values(values).onConflictDoNothing().returning({ nonce: governanceAdmissions.nonce });
  return rows.length === 1;
}

export async function recordDelivery(db: DbOrTx, profileId: string, executionId: string, attemptedAt: Date, result: string): Promise<void> {
  await db.insert(governanceDeliveries).values({ profileId, executionId, attemptedAt, result });
}

export async function deliveriesOf(db: DbOrTx, profileId: string, executionId: string) {
  return db
    .select({ attemptedAt: governanceDeliveries.attemptedAt, result: governanceDeliveries.result })
    .from(governanceDeliveries)
    .where(and(eq(governanceDeliveries.profileId, profileId), eq(governanceDeliveries.executionId, executionId)))
    .orderBy(asc(governanceDeliveries.position));
}
