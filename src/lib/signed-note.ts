import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * C2SP `signed-note` and `tlog-cosignature` (Ed25519), pure: the note verifier keys of witnesses,
 * the lines of a note, the checkpoint body, and the timestamped cosignatures a witness makes over
 * a checkpoint (docs/governance.md, "Witnesses"). Shared by the transparency log, its witness submissions,
 * LOG_WITNESSES (src/config.ts) and `npm run witness`.
 */

/** The signature types of note keys: a log's Ed25519 key, a witness's Ed25519 cosignature key. */
export const NOTE_ED25519 = 0x01;
export const COSIGNATURE_ED25519 = 0x04;

export interface NoteKey {
  name: string;
  /** The 4-byte key hash, 8 hex digits. */
  keyHash: string;
  publicKey: Buffer;
}

/** SHA-256(name ‖ "\n" ‖ type ‖ public key), first 4 bytes. */
export function noteKeyHash(name: string, type: number, publicKey: Uint8Array): Buffer {
  return createHash('sha256').update(`${name}\n`).update(Buffer.of(type)).update(publicKey).digest().subarray(0, 4);
}

/** `<name>+<8 hex key hash>+<base64(type ‖ public key)>`. */
export function formatNoteKey(name: string, type: number, publicKey: Uint8Array): string {
  const encoded = Buffer.concat([Buffer.of(type), publicKey]).toString('base64');
  return `${name}+${noteKeyHash(name, type, publicKey).toString('hex')}+${encoded}`;
}

/** A note verifier key of an Ed25519 key of `type`; throws a message saying what is wrong. */
export function parseNoteKey(text: string, type: number): NoteKey {
  // The name may not hold '+' or spaces (C2SP signed-note); the base64 may hold '+'.
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text);
  if (!match) throw new Error('not a note verifier key <name>+<8 hex key hash>+<base64 key>');
  const [, name, keyHash, encoded] = match as unknown as [string, string, string, string];
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length !== 33 || raw[0] !== type) {
    throw new Error(
      `the key is not an Ed25519 ${type === COSIGNATURE_ED25519 ? 'cosignature key (type 0x04)' : 'note key (type 0x01)'} of 32 bytes`,
    );
  }
  const publicKey = raw.subarray(1);
  if (noteKeyHash(name, type, publicKey).toString('hex') !== keyHash) throw new Error('the key hash does not match the name and key');
  return { name, keyHash, publicKey };
}

const publicKeyObjects = new WeakMap<Buffer, KeyObject>();
function publicKeyObject(raw: Buffer): KeyObject {
  let key = publicKeyObjects.get(raw);
  if (!key) {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
    publicKeyObjects.set(raw, key);
  }
  return key;
}

export interface NoteSignature {
  name: string;
  /** The decoded signature: the 4-byte key hash, then what the key type signs. */
  bytes: Buffer;
}

/** A signed note split into its body (ending in a newline) and its signature lines; null when it is not one. */
export function splitNote(text: string): { body: string; signatures: NoteSignature[] } | null {
  const split = text.indexOf('\n\n');
  if (split < 0 || !text.endsWith('\n')) return null;
  const signatures: NoteSignature[] = [];
  for (const line of text.slice(split + 2, -1).split('\n')) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    if (!match) return null;
    signatures.push({ name: match[1]!, bytes: Buffer.from(match[2]!, 'base64') });
  }
  return { body: text.slice(0, split + 1), signatures };
}

export interface CheckpointBody {
  origin: string;
  size: number;
  root: Buffer;
}

/** The first three lines of a C2SP tlog-checkpoint body; null when they are not. */
export function readCheckpointBody(body: string): CheckpointBody | null {
  const [origin, sizeText, rootText] = body.split('\n');
  if (!origin || !/^(0|[1-9]\d{0,15})$/.test(sizeText ?? '') || !/^[A-Za-z0-9+/]{43}=$/.test(rootText ?? '')) return null;
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) return null;
  return { origin, size, root: Buffer.from(rootText!, 'base64') };
}

/** Whether the note carries a valid Ed25519 note signature by `key` over `body`. */
export function signedBy(body: string, signatures: NoteSignature[], key: NoteKey): boolean {
  return signatures.some(
    (s) =>
      s.name === key.name &&
      s.bytes.length === 68 &&
      s.bytes.subarray(0, 4).toString('hex') === key.keyHash &&
      verify(null, Buffer.from(body, 'utf8'), publicKeyObject(key.publicKey), s.bytes.subarray(4)),
  );
}

/** The message a `cosignature/v1` signs: the header line, the time line, then the checkpoint body. */
export function cosignatureMessage(body: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, 'utf8');
}

/** A witness's cosignature line over `body` at `timestamp` (POSIX seconds), newline included. */
export function cosign(body: string, timestamp: number, key: { name: string; publicKey: Uint8Array; privateKey: KeyObject }): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(timestamp));
  const signature = sign(null, cosignatureMessage(body, timestamp), key.privateKey);
  const bytes = Buffer.concat([noteKeyHash(key.name, COSIGNATURE_ED25519, key.publicKey), time, signature]);
  return `\u2014 ${key.name} ${bytes.toString('base64')}\n`;
}

/** The timestamp of a valid cosignature by `key` over `body`, or null when the signature is not one. */
export function verifyCosignature(body: string, signature: NoteSignature, key: NoteKey): number | null {
  const { bytes } = signature;
  if (signature.name !== key.name || bytes.length !== 76 || bytes.subarray(0, 4).toString('hex') !== key.keyHash) return null;
  const time = bytes.readBigUInt64BE(4);
  if (time > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const timestamp = Number(time);
  return verify(null, cosignatureMessage(body, timestamp), publicKeyObject(key.publicKey), bytes.subarray(12)) ? timestamp : null;
}
