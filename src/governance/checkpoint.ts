import { sign, type KeyObject } from 'node:crypto';
import { formatNoteKey, NOTE_ED25519, noteKeyHash } from '../lib/signed-note.js';

/**
 * Checkpoints of the transparency log as C2SP `tlog-checkpoint` bodies in C2SP `signed-note`
 * envelopes (the format Go's golang.org/x/mod/sumdb/note and the Sigsum/Tessera tools verify).
 * Pure: formatting and Ed25519 over the body bytes.
 */

/** The checkpoint body: origin, tree size, base64 root hash, each line ending in a newline. */
export function checkpointBody(origin: string, size: number, root: Uint8Array): string {
  return `${origin}\n${size}\n${Buffer.from(root).toString('base64')}\n`;
}

/** The note verifier key `<name>+<8 hex key hash>+<base64(0x01 ‖ public key)>`. */
export function noteVerifierKey(name: string, publicKey: Uint8Array): string {
  return formatNoteKey(name, NOTE_ED25519, publicKey);
}

/** The signed note: the body, a blank line, and one signature line `— <name> <base64(key hash ‖ signature)>`. */
export function signNote(body: string, name: string, key: { publicKey: Uint8Array; privateKey: KeyObject }): string {
  const signature = sign(null, Buffer.from(body, 'utf8'), key.privateKey);
  const line = Buffer.concat([noteKeyHash(name, NOTE_ED25519, key.publicKey), signature]).toString('base64');
  return `${body}\n\u2014 ${name} ${line}\n`;
}
