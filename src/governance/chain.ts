import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
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

/**
 * Seals decisions into their profile's chain with group commit. Decisions of one profile that
 * arrive while a batch is being sealed wait in memory and are sealed together as the next batch:
 * one chain-head lock, one insert of every record, one head update, one transaction. A batch
 * commits whole or fails each of its decisions, so the chain never holds half a batch. Across
 * instances the chain-head row lock still orders the batches, so the chain stays gapless with no
 * forks (test/governance/postgres.test.ts).
 */
export function createChainSealer({ db, clock, signingKey }: { db: Db; clock: Clock; signingKey: SigningKey }) {
  async function sealBatch(profileId: string, batch: Decision[]): Promise<SealedRecord[]> {
    return db.transaction(async (tx) => {
      const head = await repo.lockChainHead(tx, profileId, clock.now());
      const issuedAt = clock.now();
      let seq = head.seq;
      let prevHash = head.headHash;
      const records = batch.map((decision) => {
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
      await repo.insertRecords(
        tx,
        records.map(({ record, canonical, hash }) => ({
          recordId: record.record_id,
          profileId,
          executionId: record.execution_id,
          agentId: record.agent_id,
          seq: record.seq,
          nonce: record.nonce,
          disposition: record.disposition,
          canonical,
          hash,
          issuedAt,
          expiresAt: new Date(record.expires_at),
        })),
      );
      await repo.advanceChainHead(tx, profileId, seq, prevHash, issuedAt);
      return records.map(({ record }) => record);
    });
  }

  const group = createGroupCommit(sealBatch, MAX_BATCH);

  return {
    /** Seals one decision as the next link of the profile's chain; resolves once its batch committed. */
    seal: (profileId: string, decision: Decision): Promise<SealedRecord> => group.add(profileId, decision),
  };
}

export type ChainSealer = ReturnType<typeof createChainSealer>;
