import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { canonicalJson } from '../lib/canonical-json.js';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/crypto.js';
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

interface Waiting {
  decision: Decision;
  resolve: (record: SealedRecord) => void;
  reject: (err: unknown) => void;
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
  const queues = new Map<string, Waiting[]>();

  async function sealBatch(profileId: string, batch: Waiting[]): Promise<SealedRecord[]> {
    return db.transaction(async (tx) => {
      const head = await repo.lockChainHead(tx, profileId, clock.now());
      const issuedAt = clock.now();
      let seq = head.seq;
      let prevHash = head.headHash;
      const records = batch.map(({ decision }) => {
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

  /** Seals batches of the profile's queue until it is empty; the queue is removed when done. */
  async function drain(profileId: string, queue: Waiting[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        const records = await sealBatch(profileId, batch);
        batch.forEach((w, i) => w.resolve(records[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    queues.delete(profileId);
  }

  return {
    /** Seals one decision as the next link of the profile's chain; resolves once its batch committed. */
    seal(profileId: string, decision: Decision): Promise<SealedRecord> {
      return new Promise((resolve, reject) => {
        const waiting = { decision, resolve, reject };
        const queue = queues.get(profileId);
        if (queue) {
          queue.push(waiting);
          return;
        }
        const fresh = [waiting];
        queues.set(profileId, fresh);
        // Started on the next macrotask so that decisions arriving together share the first batch.
        setImmediate(() => void drain(profileId, fresh));
      });
    },
  };
}

export type ChainSealer = ReturnType<typeof createChainSealer>;
