import { LRUCache } from 'lru-cache';
import { isUuid } from '../lib/uuid.js';
import { governanceErrors as errors, type RejectionCode } from './errors.js';
import { evaluateGates, POLICY_VERSION } from './policy.js';
import * as repo from './repo.js';
import { canonicalJson, GENESIS_HASH } from '../lib/canonical-json.js';
import { recordHash, verifyRecordSignature } from './seal.js';
import type { GovernanceService } from './service.js';

/** How far a decision's timestamp may sit from the server clock that sealed it. */
export const TIMESTAMP_WINDOW_MS = 60_000;
/** Tolerance for clocks of instances sharing one database when judging issued_at "in the future". */
export const CLOCK_SKEW_MS = 5_000;

export const BYPASS_KINDS = ['replayed_receipt', 'modified_payload', 'expired_signature', 'timestamp_manipulation'] as const;
type BypassKind = (typeof BYPASS_KINDS)[number];

export interface Rejection {
  code: RejectionCode;
  message: string;
}

type RecordObject = Record<string, unknown>;
type ChainPosition = { seq: number | null; recorded: boolean; prev_hash_matches: boolean | null };

/** Records remembered as verified (about 1 KB each), least recently presented dropped first. */
const VERIFIED_RECORDS_KEPT = 10_000;

const timeOf = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/**
 * The checks after the signature, pure over an authentic record and a moment: expiry, the
 * timestamp window, the disposition. The offline CLI applies the same three.
 */
function freshnessRejection(record: RecordObject, now: number): Rejection | null {
  const expiresAt = timeOf(record.expires_at);
  if (!(now < expiresAt)) return { code: 'RECEIPT_EXPIRED', message: 'The record expired before it was presented' };
  const issuedAt = timeOf(record.issued_at);
  const inputs = record.inputs as RecordObject | undefined;
  const decidedAt = timeOf(inputs?.timestamp);
  if (!(issuedAt <= now + CLOCK_SKEW_MS)) {
    return { code: 'TIMESTAMP_OUT_OF_WINDOW', message: 'The record was issued in the future' };
  }
  if (!(Math.abs(decidedAt - issuedAt) <= TIMESTAMP_WINDOW_MS)) {
    return { code: 'TIMESTAMP_OUT_OF_WINDOW', message: 'The decision timestamp lies outside ±60 s of the server clock at decision time' };
  }
  if (record.disposition !== 'ALLOW')
    return { code: 'NOT_ALLOWED', message: `The disposition is ${String(record.disposition)}, not ALLOW` };
  return null;
}

export type BoundaryService = ReturnType<typeof createExecutionBoundary>;

export function createExecutionBoundary(svc: GovernanceService) {
  const { db, clock } = svc;
  const verifiedRecords = new LRUCache<string, { keyId: string; chain: ChainPosition }>({ max: VERIFIED_RECORDS_KEPT });

  async function signatureOf(record: RecordObject) {
    const kid = typeof record.key_id === 'string' ? record.key_id : undefined;
    return verifyRecordSignature(record, await svc.verificationKeys(kid));
  }

  /** The stored execution a presented record claims, for the carrier log, when it is this profile's. */
  async function claimedExecution(profileId: string, record: RecordObject): Promise<string | null> {
    if (typeof record.execution_id !== 'string') return null;
    const row = await repo.findRecord(db, { executionId: record.execution_id, profileId });
    return row ? row.executionId : null;
  }

  /**
   * Every check of the execution boundary in the admit order (src/governance/README.md), consuming nothing. An
   * authentic record of another profile is not found (404), as everywhere else.
   */
  async function check(
    profileId: string,
    record: RecordObject,
    now: Date,
  ): Promise<{ rejection: Rejection | null; executionId: string | null; recordId: string | null }> {
    if (typeof record.nonce === 'string' && (await repo.isNonceConsumed(db, profileId, record.nonce))) {
      return {
        rejection: { code: 'RECEIPT_REPLAYED', message: 'This receipt was already admitted' },
        executionId: await claimedExecution(profileId, record),
        recordId: null,
      };
    }
    const signature = await signatureOf(record);
    if (!signature.valid) {
      return {
        rejection: { code: 'SIGNATURE_INVALID', message: `The signature is not valid: ${signature.reason}` },
        executionId: await claimedExecution(profileId, record),
        recordId: null,
      };
    }
    const stored = await repo.findRecord(db, { recordId: String(record.record_id), profileId });
    if (!stored) throw errors.recordNotFound();
    return { rejection: freshnessRejection(record, now.getTime()), executionId: stored.executionId, recordId: stored.recordId };
  }

  /** Admits an authentic, fresh ALLOW record exactly once; every attempt lands on the carrier. */
  async function admit(profileId: string, record: RecordObject) {
    const now = clock.now();
    const result = await check(profileId, record, now);
    const reject = async (rejection: Rejection) => {
      if (result.executionId) await repo.recordDelivery(db, profileId, result.executionId, now, rejection.code);
      return errors.rejected(rejection.code, rejection.message);
    };
    if (result.rejection) throw await reject(result.rejection);
    const admitted = await db.transaction(async (tx) => {
      const won = await repo.consumeNonce(tx, { nonce: String(record.nonce), profileId, recordId: result.recordId!, admittedAt: now });
      if (won) await repo.recordDelivery(tx, profileId, result.executionId!, now, 'ADMITTED');
      return won;
    });
    if (!admitted) throw await reject({ code: 'RECEIPT_REPLAYED', message: 'This receipt was already admitted' });
    return { admitted: true as const, execution_id: result.executionId!, record_id: result.recordId!, admitted_at: now.toISOString() };
  }

  /** The attempt of each kind the service builds itself from a fresh decision, and the moment it is judged at. */
  async function buildAttempt(profileId: string, kind: BypassKind): Promise<{ record: RecordObject; at: Date }> {
    const now = clock.now();
    switch (kind) {
      case 'replayed_receipt': {
        const record = await svc.decideScenario(profileId);
        await admit(profileId, record);
        return { record: record, at: now };
      }
      case 'modified_payload': {
        const record = await svc.decideScenario(profileId, { consequence_tier: 'CRITICAL', human_present: false });
        return { record: { ...record, disposition: 'ALLOW' }, at: now };
      }
      case 'expired_signature': {
        const record = await svc.decideScenario(profileId);
        return { record: record, at: new Date(record.expires_at) };
      }
      case 'timestamp_manipulation': {
        const record = await svc.decideScenario(profileId, { timestamp: new Date(now.getTime() - 10 * TIMESTAMP_WINDOW_MS).toISOString() });
        return { record: record, at: now };
      }
    }
  }

  /** Runs a bypass attempt through the boundary's checks without consuming anything. */
  async function challenge(profileId: string, kind: BypassKind, presented?: RecordObject) {
    const attempt = presented ? { record: presented, at: clock.now() } : await buildAttempt(profileId, kind);
    const { rejection, executionId } = await check(profileId, attempt.record, attempt.at);
    return {
      kind,
      rejected: rejection !== null,
      code: rejection?.code ?? null,
      message: rejection?.message ?? 'The record would be admitted',
      execution_id: executionId,
    };
  }

  /** Re-runs the pure gate evaluation on the record's own inputs. */
  async function replay(record: RecordObject) {
    const signature = await signatureOf(record);
    const { gates, disposition } = evaluateGates(record.inputs);
    const original = typeof record.disposition === 'string' ? record.disposition : null;
    let sameGates = false;
    try {
      sameGates = canonicalJson(gates) === canonicalJson(record.gates);
    } catch {
      sameGates = false;
    }
    return {
      signature_valid: signature.valid,
      original_disposition: original,
      replayed_disposition: disposition,
      match: original === disposition && sameGates && record.policy_version === POLICY_VERSION,
      policy_version: POLICY_VERSION,
      gates,
    };
  }

  /**
   * Public verification: the signature, separately the freshness, and the record's place in its
   * chain. A record found valid and recorded here is remembered by its hash (which covers every
   * byte of it, signature included): stored records, their predecessors and the published keys
   * never change, so the same record presented again is answered without the signature check or
   * the lookup. Freshness is judged at every call.
   */
  async function verify(record: RecordObject) {
    const now = clock.now();
    const expiresAt = timeOf(record.expires_at);
    const freshness = {
      fresh: Number.isFinite(expiresAt) && now.getTime() < expiresAt,
      expires_at: typeof record.expires_at === 'string' ? record.expires_at : null,
      checked_at: now.toISOString(),
    };
    const hash = recordHash(record);
    const known = verifiedRecords.get(hash);
    if (known) return { valid: true, key_id: known.keyId, freshness, chain: known.chain };
    const signature = await signatureOf(record);
    const chain = signature.valid ? await chainPosition(record, hash) : null;
    if (signature.valid && chain?.recorded) verifiedRecords.set(hash, { keyId: signature.key_id, chain });
    return {
      valid: signature.valid,
      key_id: signature.key_id,
      ...(signature.valid ? {} : { reason: signature.reason }),
      freshness,
      chain,
    };
  }

  async function chainPosition(record: RecordObject, hash: string): Promise<ChainPosition | null> {
    if (!isUuid(record.record_id)) return null;
    const stored = await repo.findChainLink(db, record.record_id);
    if (!stored) return { seq: typeof record.seq === 'number' ? record.seq : null, recorded: false, prev_hash_matches: null };
    const previous = stored.seq === 1 ? GENESIS_HASH : (stored.previousHash ?? undefined);
    return {
      seq: stored.seq,
      recorded: stored.hash === hash,
      prev_hash_matches: previous !== undefined && record.prev_hash === previous,
    };
  }

  return { check, admit, challenge, replay, verify };
}
