import { randomUUID } from 'node:crypto';
import type { Db, DbOrTx, Tx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { randomHex, sha256Hex } from '../lib/crypto.js';
import { createGroupCommit } from '../lib/group-commit.js';
import { silentMeter, type Meter } from '../metrics/meter.js';
import type { SigningKey } from '../signing-keys/service.js';
import { POLICY_VERSION } from './policy.js';
import { appendLeaf, leafHash } from './merkle.js';
import * as repo from './repo.js';
import { sealRecord } from './seal.js';
import type { DecisionInputs, Disposition, GateResult, SealedRecord } from './types.js';

/** How long a sealed record can be presented at the execution boundary. */
const RECORD_TTL_MS = 300_000;
/** At most this many decisions are sealed in one transaction; more wait for the next batch. */
export const MAX_BATCH = 64;

/** A decision, evaluated and ready to seal: everything of its record but the chain's fields. */
export interface Decision {
  agentId: string;
  /** The version of the agent's row its inputs were read at (repo.AgentVersion). */
  agentVersion: number;
  action: string;
  inputs: DecisionInputs;
  gates: GateResult[];
  disposition: Disposition;
}

/** How many profiles' chain heads an instance remembers; past it, it forgets them all and re-learns. */
const REMEMBERED_HEADS = 10_000;

/**
 * Re-reads the agents of a batch under lock, inside the sealing transaction: each decision as it
 * stands on their current rows (re-evaluated where an agent's version moved), or the error that
 * fails it (its agent is gone).
 */
export type Recheck = (tx: Tx, profileId: string, batch: Decision[]) => Promise<(Decision | Error)[]>;

/**
 * Seals decisions into their profile's chain with group commit. Decisions of one profile that
 * arrive while a batch is being sealed wait in memory and are sealed together as the next batch.
 * A batch is written by one statement that appends every record and moves the chain head, only
 * if the head is still where this instance last left it and every agent of the batch is still at
 * the version its decisions were evaluated from (repo.appendRecords): one round trip while one
 * instance writes a profile's chain and its agents do not change. When the head is unknown here
 * (a first batch, a failed one), another instance moved it or an agent changed, the batch is
 * sealed again in a transaction under the chain-head lock, onto the head read there, with its
 * agents re-read under a share lock (`recheck`). So a decision never seals an agent's delegations
 * older than a revocation that had committed when the statement writing its record began, even
 * when it was evaluated from a cached copy. Either way a batch commits whole or fails each of its decisions,
 * so the chain never holds half a batch; and the head row orders the writers of all instances,
 * so the chain stays gapless with no forks (test/governance/postgres.test.ts). Each record also
 * carries the transparency log's tree hashes its leaf completes, computed here from the head's
 * right edge (merkle.ts): the log is written by the same statement, with no read of the tree.
 */
export function createChainSealer({
  db,
  clock,
  signingKey,
  recheck,
  meter = silentMeter,
  onSealed,
}: {
  db: Db;
  clock: Clock;
  signingKey: SigningKey;
  recheck: Recheck;
  meter?: Meter;
  /**
   * Awaited after each committed batch, before its decisions are answered: the profile's log has
   * a new checkpoint, whose witness submissions are then queued (docs/governance.md, "Witnesses"). It must not throw.
   */
  onSealed?: (profileId: string) => Promise<void>;
}) {
  /** The head each profile's chain had after this instance's last batch of it. */
  const heads = new Map<string, repo.ChainHead>();

  /** The batch's records, signed as the links after `head`, each with the tree hashes its leaf adds. */
  function sealOnto(head: repo.ChainHead, batch: Decision[], issuedAt: Date) {
    let seq = head.seq;
    let prevHash = head.headHash;
    let frontier = head.frontier;
    const links = batch.map((decision) => {
      seq += 1;
      const { record, canonical } = sealRecord(
        {
          record_id: randomUUID(),
          execution_id: randomUUID(),
          agent_id: decision.agentId,
          action: decision.action,
          inputs: decision.inputs,
          gates: decision.gates,
          disposition: decision.disposition,
          policy_version: POLICY_VERSION,
          issued_at: issuedAt.toISOString(),
          expires_at: new Date(issuedAt.getTime() + RECORD_TTL_MS).toISOString(),
          nonce: randomHex(16),
          seq,
          prev_hash: prevHash,
          key_id: signingKey.kid,
        },
        signingKey.privateKey,
      );
      // The next link's prev_hash is the hash of the very text stored; the same bytes are the leaf.
      const bytes = Buffer.from(canonical, 'utf8');
      prevHash = sha256Hex(bytes);
      const leaf = appendLeaf(frontier, seq - 1, leafHash(bytes));
      frontier = leaf.frontier;
      return { record, canonical, hash: prevHash, treeHashes: Buffer.concat(leaf.stored) };
    });
    return { links, frontier };
  }

  /** Appends the batch after `head`; the records and the new head when written, null when `head` is no longer the chain's or an agent changed. */
  async function append(tx: DbOrTx, profileId: string, head: repo.ChainHead, batch: Decision[], issuedAt: Date) {
    if (batch.length === 0) return { sealed: [], head };
    const { links: sealed, frontier } = sealOnto(head, batch, issuedAt);
    const stored = sealed.map(({ record, canonical, hash, treeHashes }) => ({
      recordId: record.record_id,
      executionId: record.execution_id,
      agentId: record.agent_id,
      seq: record.seq,
      nonce: record.nonce,
      disposition: record.disposition,
      canonical,
      hash,
      treeHashes,
      expiresAt: new Date(record.expires_at),
    }));
    const agents = new Map(batch.map((d) => [d.agentId, { agentId: d.agentId, version: d.agentVersion }]));
    const last = sealed[sealed.length - 1]!;
    const next = { seq: last.record.seq, headHash: last.hash, frontier };
    if (!(await repo.appendRecords(tx, profileId, head, next, stored, [...agents.values()], issuedAt))) return null;
    return { sealed, head: next };
  }

  async function sealBatch(profileId: string, batch: Decision[]): Promise<(SealedLink | Error)[]> {
    const known = heads.get(profileId);
    heads.delete(profileId);
    let outcomes: (Decision | Error)[] = batch;
    let written = known ? await append(db, profileId, known, batch, clock.now()) : null;
    written ??= await db.transaction(async (tx) => {
      const head = await repo.lockChainHead(tx, profileId, clock.now());
      outcomes = await recheck(tx, profileId, batch);
      const appended = await append(tx, profileId, head, outcomes.filter(isDecision), clock.now());
      // The head and the agents are locked: nobody else can have moved them.
      if (!appended) throw new Error(`the chain head or an agent of profile ${profileId} moved while locked`);
      return appended;
    });
    if (heads.size >= REMEMBERED_HEADS) heads.clear();
    heads.set(profileId, written.head);
    meter.governanceBatchSealed(written.sealed.map((link) => link.record.disposition));
    if (written.sealed.length > 0) await onSealed?.(profileId);
    const links = written.sealed.values();
    return outcomes.map((outcome) => {
      if (!isDecision(outcome)) return outcome;
      const { record, canonical } = links.next().value!;
      return { record, canonical };
    });
  }

  const group = createGroupCommit(sealBatch, MAX_BATCH);

  return {
    /**
     * Seals one decision as the next link of the profile's chain; resolves once its batch
     * committed, with the record and its canonical JSON text (what is stored and hashed).
     */
    seal: async (profileId: string, decision: Decision): Promise<SealedLink> => {
      const outcome = await group.add(profileId, decision);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
}

/** A sealed record and its RFC 8785 canonical JSON, the exact text stored and hashed. */
export interface SealedLink {
  record: SealedRecord;
  canonical: string;
}

function isDecision(outcome: Decision | Error): outcome is Decision {
  return !(outcome instanceof Error);
}
