import { randomBytes, randomUUID } from 'node:crypto';
import type { Db, DbOrTx } from '../db/client.js';
import { canonicalJson } from '../lib/canonical-json.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/crypto.js';
import { createGroupCommit } from '../lib/group-commit.js';
import type { SigningKey } from '../signing-keys/service.js';
import { POLICY_VERSION } from './policy.js';
import * as repo from './repo.js';
import { sealRecord } from './seal.js';
import type { DecisionInputs, Disposition, GateResult, SealedRecord } from './types.js';

/** How long a sealed record can be presented at the execution boundary. */
export const RECORD_TTL_MS = 300_000;
/** At most this many decisions are sealed in one transaction; more wait for the next batch. */
export const MAX_BATCH = 64;

/** A decision, evaluated and ready to seal: everything of its record but the chain's fields. */
export interface Decision {
  agentId: string;
  action: string;
  inputs: DecisionInputs;
  gates: GateResult[];
  disposition: Disposition;
}

/** How many profiles' chain heads an instance remembers; past it, it forgets them all and re-learns. */
const REMEMBERED_HEADS = 10_000;

/**
 * Seals decisions into their profile's chain with group commit. Decisions of one profile that
 * arrive while a batch is being sealed wait in memory and are sealed together as the next batch.
 * A batch is written by one statement that appends every record and moves the chain head, only
 * if the head is still where this instance last left it (repo.appendRecords): one round trip
 * while one instance writes a profile's chain. When the head is unknown here (a first batch, a
 * failed one) or another instance moved it, the batch is sealed again under the chain-head lock
 * in a transaction, onto the head read there. Either way a batch commits whole or fails each of
 * its decisions, so the chain never holds half a batch; and the head row orders the writers of
 * all instances, so the chain stays gapless with no forks (test/governance/postgres.test.ts).
 */
export function createChainSealer({ db, clock, signingKey }: { db: Db; clock: Clock; signingKey: SigningKey }) {
  /** The head each profile's chain had after this instance's last batch of it. */
  const heads = new Map<string, repo.ChainHead>();

  /** The batch's records, signed as the links after `head`. */
  function sealOnto(head: repo.ChainHead, batch: Decision[], issuedAt: Date) {
    let seq = head.seq;
    let prevHash = head.headHash;
    return batch.map((decision) => {
      seq += 1;
      const record = sealRecord(
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
          nonce: randomBytes(16).toString('hex'),
          seq,
          prev_hash: prevHash,
          key_id: signingKey.kid,
        },
        signingKey.privateKey,
      );
      // The stored text and the next link's prev_hash come from one canonicalization.
      const canonical = canonicalJson(record);
      prevHash = sha256Hex(Buffer.from(canonical, 'utf8'));
      return { record, canonical, hash: prevHash };
    });
  }

  /** Appends the batch after `head`; the records when written, null when `head` is no longer the chain's. */
  async function append(tx: DbOrTx, profileId: string, head: repo.ChainHead, batch: Decision[], issuedAt: Date) {
    const sealed = sealOnto(head, batch, issuedAt);
    const stored = sealed.map(({ record, canonical, hash }) => ({
      recordId: record.record_id,
      executionId: record.execution_id,
      agentId: record.agent_id,
      seq: record.seq,
      nonce: record.nonce,
      disposition: record.disposition,
      canonical,
      hash,
      expiresAt: new Date(record.expires_at),
    }));
    if (!(await repo.appendRecords(tx, profileId, head, stored, issuedAt))) return null;
    const last = sealed[sealed.length - 1]!;
    return { sealed, head: { seq: last.record.seq, headHash: last.hash } };
  }

  async function sealBatch(profileId: string, batch: Decision[]): Promise<SealedLink[]> {
    const known = heads.get(profileId);
    heads.delete(profileId);
    let written = known ? await append(db, profileId, known, batch, clock.now()) : null;
    written ??= await db.transaction(async (tx) => {
      const head = await repo.lockChainHead(tx, profileId, clock.now());
      const appended = await append(tx, profileId, head, batch, clock.now());
      // The head is locked: nobody else can have moved it.
      if (!appended) throw new Error(`the chain head of profile ${profileId} moved while locked`);
      return appended;
    });
    if (heads.size >= REMEMBERED_HEADS) heads.clear();
    heads.set(profileId, written.head);
    return written.sealed.map(({ record, canonical }) => ({ record, canonical }));
  }

  const group = createGroupCommit(sealBatch, MAX_BATCH);

  return {
    /**
     * Seals one decision as the next link of the profile's chain; resolves once its batch
     * committed, with the record and its canonical JSON text (what is stored and hashed).
     */
    seal: (profileId: string, decision: Decision): Promise<SealedLink> => group.add(profileId, decision),
  };
}

/** A sealed record and its RFC 8785 canonical JSON, the exact text stored and hashed. */
export interface SealedLink {
  record: SealedRecord;
  canonical: string;
}

export type ChainSealer = ReturnType<typeof createChainSealer>;
