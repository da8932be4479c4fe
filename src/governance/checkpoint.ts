import { createHash, sign, type KeyObject } from 'node:crypto';

/**
 * Checkpoints of the transparency log as C2SP `tlog-checkpoint` bodies in C2SP `signed-note`
 * envelopes (the format Go's golang.org/x/mod/sumdb/note and the Sigsum/Tessera tools verify).
 * Pure: formatting and Ed25519 over the body bytes.
 */

/** The note's Ed25519 signature type byte. */
const ED25519_ALGORITHM = 0x01;

/** The checkpoint body: origin, tree size, base64 root hash, each line ending in a newline. */
export function checkpointBody(origin: string, size: number, root: Uint8Array): string {
  return `${origin}\n${size}\n${Buffer.from(root).toString('base64')}\n`;
}

/** The 4-byte key hash of a note key: SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key), first 4 bytes. */
function noteKeyHash(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256').update(`${name}\n`).update(Buffer.of(ED25519_ALGORITHM)).update(publicKey).digest().subarray(0, 4);
}

/** The note verifier key `<name>+<8 hex key hash>+<base64(0x01 ‖ public key)>`. */
export function noteVerifierKey(name: string, publicKey: Uint8Array): string {
  const encoded = Buffer.concat([Buffer.of(ED25519_ALGORITHM), publicKey]).toString('base64');
  return `${name}+${noteKeyHash(name, publicKey).toString('hex')}+${encoded}`;
}

/** The signed note: the body, a blank line, and one signature line `— <name> <base64(key hash ‖ signature)>`. */
export function signNote(body: string, name: string, key: { publicKey: Uint8Array; privateKey: KeyObject }): string {
  const signature = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  const line = Buffer.concat([noteKeyHash(name, key.publicKey), signature]).toString('base64');
  return `${body}\n\u2014 ${name} ${line}\n`;
}
