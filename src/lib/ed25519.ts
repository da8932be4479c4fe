import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { sha256Hex } from './crypto.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The node:crypto key pair of a 32-byte Ed25519 seed. */
export function keyPairFromSeed(seed: Buffer): { privateKey: KeyObject; publicKeyObject: KeyObject; publicKey: Buffer } {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKeyObject = createPublicKey(privateKey);
  const jwk = publicKeyObject.export({ format: 'jwk' });
  return { privateKey, publicKeyObject, publicKey: Buffer.from(jwk.x!, 'base64url') };
}

/** Key ids are the first 16 hex characters of SHA-256 over the raw public key (as the OpenAPI document's key listings say). */
export function keyIdOf(publicKey: Uint8Array): string {
  return sha256Hex(publicKey).slice(0, 16);
}
