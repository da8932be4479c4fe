import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { DataKeys } from '../at-rest/data-keys.js';
import { settledSeed } from './service.js';

/** An ML-DSA-65 (FIPS 204) key of the process, kept like the Ed25519 keys: generated once, stored as its 32-byte seed. */
export interface MlDsaKey {
  kid: string;
  purpose: string;
  /** The 1,952-byte public key. */
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export async function liveMlDsaKey(db: Db, clock: Clock, keys: DataKeys, purpose: 'governance-checkpoint-ml-dsa'): Promise<MlDsaKey> {
  const { kid, seed } = await settledSeed(db, clock, keys, purpose, 32, (s) => ml_dsa65.keygen(s).publicKey);
  const { publicKey, secretKey } = ml_dsa65.keygen(seed);
  return { kid, purpose, publicKey, sign: (message) => ml_dsa65.sign(message, secretKey) };
}
