import { createPublicKey, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';
import { Point } from '@noble/ed25519';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256Hex } from '../lib/crypto.js';
import type { SealedRecord, UnsignedRecord } from './types.js';

/** Lowercase hex SHA-256 of a whole record's JCS bytes (signature included): the next record's prev_hash. */
export function recordHash(record: SealedRecord | Record<string, unknown>): string {
  return sha256Hex(Buffer.from(canonicalJson(record), 'utf8'));
}

/** The bytes a record's signature covers: the JCS of every field except `signature`. */
export function signingBytes(record: Record<string, unknown>): Buffer {
  const { signature: _omitted, ...unsigned } = record;
  return Buffer.from(canonicalJson(unsigned), 'utf8');
}

/**
 * Signs a record: the sealed record with its RFC 8785 canonical JSON, the exact text stored and
 * hashed. JCS orders an object's members by their names' UTF-16 code units, and every field name
 * of a record sorts before "signature", so the signed record's canonical text is the unsigned
 * one (the signed bytes) with the signature appended as its last member: one canonicalization
 * per record instead of two. A record with a field that sorts after it is canonicalized whole.
 */
export function sealRecord(unsigned: UnsignedRecord, privateKey: KeyObject): { record: SealedRecord; canonical: string } {
  const signed = canonicalJson(unsigned);
  const signature = edSign(null, Buffer.from(signed, 'utf8'), privateKey).toString('base64url');
  const record = { ...unsigned, signature };
  const canonical = Object.keys(unsigned).every((name) => name < 'signature')
    ? `${signed.slice(0, -1)},"signature":"${signature}"}`
    : canonicalJson(record);
  return { record, canonical };
}

/**
 * True for a usable Ed25519 public key: 32 bytes, a canonical encoding of a curve point
 * (RFC 8032 decoding, not ZIP-215) and not of small order — small-order keys let one
 * signature verify for many messages.
 */
export function isAcceptablePublicKey(raw: Uint8Array): boolean {
  if (raw.length !== 32) return false;
  try {
    const point = Point.fromBytes(raw, false);
    return !point.isSmallOrder();
  } catch {
    return false;
  }
}

export function publicKeyObject(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
}

/**
 * The verifying KeyObject of an acceptable key, or null: decoding the point and building the
 * key cost more than the verify itself, and a process only ever sees a handful of keys.
 */
const verifierCache = new Map<string, KeyObject | null>();
function verifierOf(raw: Uint8Array): KeyObject | null {
  const id = Buffer.from(raw).toString('hex');
  let verifier = verifierCache.get(id);
  if (verifier === undefined) {
    verifier = isAcceptablePublicKey(raw) ? publicKeyObject(raw) : null;
    if (verifierCache.size >= 64) verifierCache.clear();
    verifierCache.set(id, verifier);
  }
  return verifier;
}

type SignatureCheck = { valid: true; key_id: string } | { valid: false; key_id: string | null; reason: string };

const BASE64URL_SIGNATURE = /^[A-Za-z0-9_-]{86}$/;

/**
 * Verifies a record's signature with the published key its key_id names. Never throws: a
 * record that is not even shaped like one is simply not valid.
 */
export function verifyRecordSignature(record: unknown, keys: ReadonlyMap<string, Uint8Array>): SignatureCheck {
  if (!record || typeof record !== 'object' || Array.isArray(record)) {
    return { valid: false, key_id: null, reason: 'the record is not a JSON object' };
  }
  const fields = record as Record<string, unknown>;
  const keyId = typeof fields.key_id === 'string' ? fields.key_id : null;
  if (!keyId) return { valid: false, key_id: null, reason: 'the record names no key_id' };
  const raw = keys.get(keyId);
  if (!raw) return { valid: false, key_id: keyId, reason: 'unknown key_id' };
  const verifier = verifierOf(raw);
  if (!verifier) return { valid: false, key_id: keyId, reason: 'the public key is not acceptable' };
  if (typeof fields.signature !== 'string' || !BASE64URL_SIGNATURE.test(fields.signature)) {
    return { valid: false, key_id: keyId, reason: 'the signature is missing or malformed' };
  }
  let ok = false;
  try {
    ok = edVerify(null, signingBytes(fields), verifier, Buffer.from(fields.signature, 'base64url'));
  } catch {
    ok = false;
  }
  return ok ? { valid: true, key_id: keyId } : { valid: false, key_id: keyId, reason: 'the signature does not match the record' };
}
