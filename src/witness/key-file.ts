import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { keyPairFromSeed } from '../lib/ed25519.js';
import { COSIGNATURE_ED25519, formatNoteKey, noteKeyHash } from '../lib/signed-note.js';

/**
 * The witness's Ed25519 key in its file, in the form of a Go note signer key
 * (`PRIVATE+KEY+<name>+<8 hex key hash>+<base64(0x04 ‖ seed)>`): the name travels with the key,
 * so a restart needs no flag to say who the witness is. Made on the first start, mode 0600.
 */

export interface WitnessKey {
  name: string;
  publicKey: Buffer;
  privateKey: ReturnType<typeof keyPairFromSeed>['privateKey'];
  /** `<name>+<key hash>+<base64(0x04 ‖ public key)>`: what a log's LOG_WITNESSES and verify-record --witness take. */
  verifierKey: string;
}

function keyOf(name: string, seed: Buffer): WitnessKey {
  const pair = keyPairFromSeed(seed);
  return {
    name,
    publicKey: pair.publicKey,
    privateKey: pair.privateKey,
    verifierKey: formatNoteKey(name, COSIGNATURE_ED25519, pair.publicKey),
  };
}

/** Reads the key file, or makes it (with `name`) when there is none; throws a message on a file that is not one. */
export async function loadOrCreateWitnessKey(file: string, name: string): Promise<{ key: WitnessKey; created: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (!/^[^+\s]+$/.test(name)) throw new Error(`the witness name ${JSON.stringify(name)} may not hold '+' or spaces`);
    const seed = randomBytes(32);
    const key = keyOf(name, seed);
    const encoded = Buffer.concat([Buffer.of(COSIGNATURE_ED25519), seed]).toString('base64');
    const hash = noteKeyHash(name, COSIGNATURE_ED25519, key.publicKey).toString('hex');
    // 'wx': never overwrite a key another start made meanwhile.
    await writeFile(file, `PRIVATE+KEY+${name}+${hash}+${encoded}\n`, { mode: 0o600, flag: 'wx' });
    return { key, created: true };
  }
  const match = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})\n?$/.exec(text);
  const raw = match ? Buffer.from(match[3]!, 'base64') : undefined;
  if (!match || !raw || raw.length !== 33 || raw[0] !== COSIGNATURE_ED25519) {
    throw new Error(`${file} is not a witness key file (PRIVATE+KEY+<name>+<hash>+<base64 of 0x04 and a 32-byte seed>)`);
  }
  const key = keyOf(match[1]!, raw.subarray(1));
  if (noteKeyHash(key.name, COSIGNATURE_ED25519, key.publicKey).toString('hex') !== match[2]) {
    throw new Error(`${file}: the key hash does not match the name and key`);
  }
  return { key, created: false };
}
