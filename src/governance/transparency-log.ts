import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.js';
import type { DataKeys } from '../at-rest/data-keys.js';
import type { Clock } from '../lib/clock.js';
import { liveMlDsaKey, type MlDsaKey } from '../signing-keys/ml-dsa.js';
import { liveSigningKey, type SigningKey } from '../signing-keys/service.js';
import { checkpointBody, noteVerifierKey, signNote } from './checkpoint.js';
import { governanceErrors as errors } from './errors.js';
import { listLogKeys, logOriginOf } from './log-keys.js';
import * as logRepo from './log-repo.js';
import { recordsAfter } from './repo.js';
import { cosignaturesAt } from './witness/repo.js';
import {
  consistencyRanges,
  foldRoots,
  inclusionRanges,
  keeperSeq,
  rangeHashes,
  subtreesNeeded,
  type LeafRange,
  type Subtree,
} from './merkle.js';

/** Signed checkpoints remembered, one per profile and tree size (a tree of a given size never changes). */
const REMEMBERED_CHECKPOINTS = 10_000;

export interface SignedCheckpoint {
  origin: string;
  tree_size: number;
  checkpoint: string;
  verifier_key: string;
  ml_dsa: { public_key: string; signature: string };
}

/** The answer of GET /v1/governance/log: the checkpoint with the witnesses' cosignature lines appended. */
export interface LogAnswer extends SignedCheckpoint {
  cosignatures: { witness: string; timestamp: string }[];
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/**
 * The transparency log over each profile's chain (docs/governance.md, "Transparency log"): signed
 * checkpoints of its Merkle tree and RFC 9162 inclusion and consistency proofs, each read from the
 * O(log n) tree hashes the records keep (src/governance/merkle.ts).
 */
export function createTransparencyLog({
  db,
  publicUrl,
  checkpointKey,
  mlDsaKey,
  witnesses = [],
}: {
  db: Db;
  publicUrl: string;
  checkpointKey: SigningKey;
  mlDsaKey: MlDsaKey;
  /** The names of the witnesses in LOG_WITNESSES: only their cosignatures are served. */
  witnesses?: string[];
}) {
  const originOf = (profileId: string) => logOriginOf(publicUrl, profileId);
  const signed = new LRUCache<string, SignedCheckpoint>({ max: REMEMBERED_CHECKPOINTS });
  const mlDsaPublicKey = b64(mlDsaKey.publicKey);

  /** The signed checkpoint of the profile's tree as committed now: every record sealed before the call is in it. */
  async function signedCheckpoint(profileId: string): Promise<SignedCheckpoint> {
    const head = await logRepo.treeHead(db, profileId);
    const cacheKey = `${profileId}/${head.size}`;
    const cached = signed.get(cacheKey);
    if (cached) return cached;
    const origin = originOf(profileId);
    const body = checkpointBody(origin, head.size, foldRoots(head.frontier));
    const answer: SignedCheckpoint = {
      origin,
      tree_size: head.size,
      checkpoint: signNote(body, origin, checkpointKey),
      verifier_key: noteVerifierKey(origin, checkpointKey.publicKey),
      ml_dsa: { public_key: mlDsaPublicKey, signature: b64(mlDsaKey.sign(Buffer.from(body, 'utf8'))) },
    };
    signed.set(cacheKey, answer);
    return answer;
  }

  /**
   * The current checkpoint with the cosignatures the witnesses have returned for its size
   * (docs/governance.md, "Witnesses"): their lines follow the log's own signature in the note, as C2SP
   * tlog-cosignature has it, and `cosignatures` says who cosigned and when. A witness still
   * catching up (its job retried) is simply not there yet.
   */
  async function checkpoint(profileId: string): Promise<LogAnswer> {
    const answer = await signedCheckpoint(profileId);
    const rows = answer.tree_size === 0 ? [] : await cosignaturesAt(db, profileId, answer.tree_size, witnesses);
    return {
      ...answer,
      checkpoint: answer.checkpoint + rows.map((row) => `\u2014 ${row.witness} ${row.signature}\n`).join(''),
      cosignatures: rows.map((row) => ({ witness: row.witness, timestamp: new Date(row.cosignedAt * 1000).toISOString() })),
    };
  }

  /**
   * The hashes of `ranges` in a tree of `size` leaves, plus the leaf hash of `seq` when given, in
   * one read; null when the profile's tree is smaller than `size`.
   */
  async function hashesOf(profileId: string, size: number, ranges: LeafRange[], seq?: number) {
    const needed = subtreesNeeded(ranges);
    // The record at `size` answers whether the tree is that big: records are gapless.
    const seqs = new Set([size, ...needed.map(keeperSeq), ...(seq === undefined ? [] : [seq])]);
    const kept = await logRepo.keptHashes(db, profileId, [...seqs]);
    if (!kept.has(size)) return null;
    const rootOf = (s: Subtree) => {
      const root = kept.get(keeperSeq(s))?.[s.level];
      // Every record keeps the roots its leaf completes (migration 0012 and the sealer): a gap is corruption.
      if (!root) throw new Error(`tree hash ${s.level}/${s.index} of profile ${profileId} is missing`);
      return root;
    };
    return { proof: rangeHashes(ranges, rootOf), leaf: seq === undefined ? undefined : kept.get(seq)?.[0] };
  }

  async function inclusionProof(profileId: string, seq: number, treeSize: number) {
    if (seq < 1) throw errors.proofOutOfRange(`seq must be at least 1, not ${seq}`);
    if (seq > treeSize) throw errors.proofOutOfRange(`seq ${seq} is beyond tree_size ${treeSize}`);
    const hashes = await hashesOf(profileId, treeSize, inclusionRanges(seq - 1, treeSize), seq);
    if (!hashes?.leaf) throw errors.proofOutOfRange(`tree_size ${treeSize} is beyond the current tree size`);
    return { seq, leaf_index: seq - 1, tree_size: treeSize, leaf_hash: b64(hashes.leaf), proof: hashes.proof.map(b64) };
  }

  async function consistencyProof(profileId: string, from: number, to: number) {
    if (from < 1) throw errors.proofOutOfRange(`from must be at least 1, not ${from}`);
    if (from > to) throw errors.proofOutOfRange(`from ${from} is beyond to ${to}`);
    const hashes = await hashesOf(profileId, to, consistencyRanges(from, to));
    if (!hashes) throw errors.proofOutOfRange(`to ${to} is beyond the current tree size`);
    return { from, to, proof: hashes.proof.map(b64) };
  }

  /** Every profile's log with its keys, for auditors to pin (public). */
  const keys = () => listLogKeys(db, publicUrl);

  return { checkpoint, signedCheckpoint, inclusionProof, consistencyProof, keys };
}

export type TransparencyLog = ReturnType<typeof createTransparencyLog>;

/**
 * The log with its live keys, as the governance API (/v1/governance/log) and the operator console
 * (/admin/v1/profiles/{id}/governance/log) serve it: one construction, so both sign with the
 * same keys of their own purpose, never the records' key.
 */
export async function openTransparencyLog({
  db,
  clock,
  dataKeys,
  publicUrl,
  witnesses,
}: {
  db: Db;
  clock: Clock;
  dataKeys: DataKeys;
  publicUrl: string;
  /** The names of LOG_WITNESSES, whose cosignatures the served note carries. */
  witnesses: string[];
}) {
  return createTransparencyLog({
    db,
    publicUrl,
    checkpointKey: await liveSigningKey(db, clock, dataKeys, 'governance-checkpoint'),
    mlDsaKey: await liveMlDsaKey(db, clock, dataKeys, 'governance-checkpoint-ml-dsa'),
    witnesses,
  });
}

/**
 * The operator console's view of a profile's log (docs/governance.md, "Transparency log"): the checkpoint as
 * GET /v1/governance/log answers it, and one record with its inclusion proof in a tree the
 * checkpoint names, so the console checks the inclusion itself (web/console/operator/log-proof.ts)
 * rather than trusting a "yes" from the server.
 */
export function createOperatorLogReads(db: Db, log: TransparencyLog) {
  return {
    checkpoint: (profileId: string) => log.checkpoint(profileId),

    /** The record of `seq` exactly as stored and hashed (its leaf), and its proof in the tree of `treeSize` records. */
    async recordInclusion(profileId: string, seq: number, treeSize: number) {
      const [record] = await recordsAfter(db, profileId, seq - 1, 1);
      if (!record || record.seq !== seq) throw errors.recordNotFound();
      return { leaf: record.canonical, inclusion: await log.inclusionProof(profileId, seq, treeSize) };
    },
  };
}
