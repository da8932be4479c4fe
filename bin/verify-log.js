// The transparency log half of verify-record: checkpoints (C2SP signed notes of C2SP
// tlog-checkpoint bodies) and RFC 9162 inclusion and consistency proofs, with no server.
// Plain JS on node:crypto and @noble; see verify-record.js for the command line.
import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

export class LogInvalid extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
export const leafHash = (leaf) => sha256(Buffer.of(0), leaf);
const nodeHash = (left, right) => sha256(Buffer.of(1), left, right);

/** A 32-byte hash from base64, or null. */
function hashFrom(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(text)) return null;
  return Buffer.from(text, 'base64');
}

/** The key hash of a note key: the first 4 bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key). */
const keyHashOf = (name, publicKey) => sha256(Buffer.from(`${name}\n`), Buffer.of(1), publicKey).subarray(0, 4);

/** `<name>+<8 hex key hash>+<base64(0x01 ‖ Ed25519 public key)>`; throws a message on anything else. */
export function parseVerifierKey(text) {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text ?? '');
  if (!match) throw new Error('--verifier-key must be <name>+<8 hex>+<base64>');
  const raw = Buffer.from(match[3], 'base64');
  if (raw.length !== 33 || raw[0] !== 1) throw new Error('--verifier-key must hold an Ed25519 key (0x01 and 32 bytes)');
  const publicKey = raw.subarray(1);
  if (keyHashOf(match[1], publicKey).toString('hex') !== match[2]) throw new Error("--verifier-key's key hash does not match its key");
  return { name: match[1], keyHash: match[2], publicKey: new Uint8Array(publicKey) };
}

/**
 * Opens a checkpoint: the note's signature by `key` must verify over its body, and the body must
 * be a tlog-checkpoint of the key's origin. The text may be the note itself or the whole answer
 * of GET /v1/governance/log (then its ML-DSA-65 signature is checked too when `mlDsaKey` is given).
 */
export function openCheckpoint(text, key, mlDsaKey) {
  let note = text;
  let mlDsa;
  if (text.trimStart().startsWith('{')) {
    const answer = JSON.parse(text);
    note = answer.checkpoint;
    mlDsa = answer.ml_dsa;
    if (typeof note !== 'string') throw new LogInvalid('CHECKPOINT_MALFORMED', 'the JSON holds no checkpoint');
  }
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new LogInvalid('CHECKPOINT_MALFORMED', 'not a signed note');
  const body = note.slice(0, split + 1);
  const signatures = note
    .slice(split + 2)
    .split('\n')
    .slice(0, -1)
    .map((line) => /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line))
    .filter(Boolean)
    .map((m) => ({ name: m[1], bytes: Buffer.from(m[2], 'base64') }));
  const signed = signatures
    .filter((s) => s.name === key.name)
    .map((s) => s.bytes)
    .find((sig) => sig.length === 68 && sig.subarray(0, 4).toString('hex') === key.keyHash);
  if (!signed) throw new LogInvalid('CHECKPOINT_SIGNATURE_INVALID', `no signature by ${key.name}+${key.keyHash}`);
  if (!ed.verify(new Uint8Array(signed.subarray(4)), new Uint8Array(Buffer.from(body, 'utf8')), key.publicKey, { zip215: false })) {
    throw new LogInvalid('CHECKPOINT_SIGNATURE_INVALID', 'the checkpoint signature does not verify');
  }
  const [origin, sizeText, rootText] = body.split('\n');
  const root = hashFrom(rootText);
  if (origin !== key.name || !/^(0|[1-9]\d{0,15})$/.test(sizeText ?? '') || !root) {
    throw new LogInvalid('CHECKPOINT_MALFORMED', 'the body is not a checkpoint of the key’s origin');
  }
  let mlDsaVerified = false;
  if (mlDsaKey) {
    if (!mlDsa)
      throw new LogInvalid(
        'ML_DSA_MISSING',
        'an ML-DSA key was given but the checkpoint file is not the /log answer holding the signature',
      );
    const ok = ml_dsa65.verify(Buffer.from(mlDsa.signature ?? '', 'base64'), Buffer.from(body, 'utf8'), mlDsaKey);
    if (!ok) throw new LogInvalid('ML_DSA_SIGNATURE_INVALID', 'the ML-DSA-65 signature does not verify over the checkpoint body');
    mlDsaVerified = true;
  }
  return { origin, size: Number(sizeText), root, mlDsaVerified, body, signatures };
}

/** The key hash of a witness's cosignature key: SHA-256(name ‖ "\n" ‖ 0x04 ‖ public key), first 4 bytes. */
const cosignerHashOf = (name, publicKey) => sha256(Buffer.from(`${name}\n`), Buffer.of(4), publicKey).subarray(0, 4);

/** A witness's key `<name>+<8 hex key hash>+<base64(0x04 ‖ Ed25519 public key)>` (C2SP tlog-cosignature); throws a message on anything else. */
export function parseWitnessKey(text) {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text ?? '');
  if (!match) throw new Error(`--witness ${text} must be <name>+<8 hex>+<base64>`);
  const raw = Buffer.from(match[3], 'base64');
  if (raw.length !== 33 || raw[0] !== 4) throw new Error(`--witness ${match[1]} must hold an Ed25519 cosignature key (0x04 and 32 bytes)`);
  const publicKey = raw.subarray(1);
  if (cosignerHashOf(match[1], publicKey).toString('hex') !== match[2])
    throw new Error(`--witness ${match[1]}: the key hash does not match its key`);
  return { name: match[1], keyHash: match[2], publicKey: new Uint8Array(publicKey) };
}

/**
 * The witnesses whose C2SP tlog-cosignature (Ed25519, `cosignature/v1`) on the opened checkpoint
 * verifies, each once with its timestamp (POSIX seconds). Lines of other keys are ignored.
 */
export function cosignedBy(checkpoint, witnesses) {
  const found = [];
  for (const witness of witnesses) {
    for (const { name, bytes } of checkpoint.signatures) {
      if (name !== witness.name || bytes.length !== 76 || bytes.subarray(0, 4).toString('hex') !== witness.keyHash) continue;
      const timestamp = bytes.readBigUInt64BE(4);
      const message = Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpoint.body}`, 'utf8');
      if (ed.verify(new Uint8Array(bytes.subarray(12)), new Uint8Array(message), witness.publicKey, { zip215: false })) {
        found.push({ name: witness.name, timestamp: Number(timestamp) });
        break;
      }
    }
  }
  return found;
}

/** Throws QUORUM_NOT_MET unless at least `quorum` of the witnesses cosigned the checkpoint; the ones that did. */
export function checkQuorum(checkpoint, witnesses, quorum) {
  const found = cosignedBy(checkpoint, witnesses);
  if (found.length < quorum) {
    const names = new Set(found.map((w) => w.name));
    const missing = witnesses.filter((w) => !names.has(w.name)).map((w) => w.name);
    throw new LogInvalid(
      'QUORUM_NOT_MET',
      `${found.length} of the ${quorum} witness cosignatures required verify` +
        `${found.length ? ` (${[...names].join(', ')})` : ''}; none verifies from ${missing.join(', ')}`,
    );
  }
  return found;
}

/** The proof's hashes, or an INVALID. */
function proofHashes(answer) {
  const hashes = Array.isArray(answer?.proof) ? answer.proof.map(hashFrom) : [null];
  if (hashes.some((h) => h === null)) throw new LogInvalid('PROOF_MALFORMED', 'the proof is not a list of base64 SHA-256 hashes');
  return hashes;
}

/** RFC 9162 §2.1.3.2. */
export function verifyInclusion(leaf, answer, checkpoint) {
  const index = answer?.leaf_index;
  if (answer?.tree_size !== checkpoint.size) {
    throw new LogInvalid('PROOF_MISMATCH', `the proof is for tree size ${answer?.tree_size}, the checkpoint's is ${checkpoint.size}`);
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= checkpoint.size)
    throw new LogInvalid('PROOF_MALFORMED', 'leaf_index is not in the tree');
  const proof = proofHashes(answer);
  let fn = index;
  let sn = checkpoint.size - 1;
  let r = leafHash(leaf);
  for (const p of proof) {
    if (sn === 0) throw new LogInvalid('NOT_INCLUDED', 'the proof is longer than the tree is deep');
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else r = nodeHash(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0 || !r.equals(checkpoint.root)) throw new LogInvalid('NOT_INCLUDED', 'the proof does not lead to the checkpoint root');
}

/** RFC 9162 §2.1.4.2. */
export function verifyConsistency(older, newer, answer) {
  if (answer?.from !== older.size || answer?.to !== newer.size) {
    throw new LogInvalid(
      'PROOF_MISMATCH',
      `the proof is from ${answer?.from} to ${answer?.to}, the checkpoints' sizes are ${older.size} and ${newer.size}`,
    );
  }
  const proof = proofHashes(answer);
  if (older.size === newer.size) {
    if (proof.length !== 0 || !older.root.equals(newer.root)) throw new LogInvalid('NOT_CONSISTENT', 'equal sizes with different roots');
    return;
  }
  const path = (older.size & (older.size - 1)) === 0 ? [older.root, ...proof] : proof;
  if (path.length === 0) throw new LogInvalid('NOT_CONSISTENT', 'the proof is empty');
  let fn = older.size - 1;
  let sn = newer.size - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) throw new LogInvalid('NOT_CONSISTENT', 'the proof is longer than the tree is deep');
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else sr = nodeHash(sr, c);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0 || !fr.equals(older.root) || !sr.equals(newer.root)) {
    throw new LogInvalid('NOT_CONSISTENT', 'the proof does not join the two checkpoint roots');
  }
}
