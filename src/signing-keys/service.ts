import { randomBytes, type KeyObject } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { keyIdOf, keyPairFromSeed } from '../lib/ed25519.js';
import { signingSeedContext, type DataKeys } from '../at-rest/data-keys.js';
import * as repo from './repo.js';

type KeyPurpose = 'governance' | 'governance-checkpoint' | 'attestation' | 'identity-webhook';

export interface SigningKey {
  kid: string;
  purpose: KeyPurpose;
  /** Raw 32-byte public key. */
  publicKey: Buffer;
  privateKey: KeyObject;
  publicKeyObject: KeyObject;
}

export interface PublishedKey {
  kid: string;
  purpose: string;
  publicKey: string;
  createdAt: string;
  retiredAt: string | null;
}

/**
 * The live key of a purpose. A configured seed wins (and retires a different live key: rotation);
 * otherwise the stored key, or a new one generated once and persisted. Safe when several
 * instances start at once: the unique live-key index lets exactly one insert win.
 */
export async function liveSigningKey(
  db: Db,
  clock: Clock,
  keys: DataKeys,
  purpose: KeyPurpose,
  configuredSeed?: Buffer,
): Promise<SigningKey> {
  if (configuredSeed) {
    const pair = keyPairFromSeed(configuredSeed);
    const kid = keyIdOf(pair.publicKey);
    await db.transaction(async (tx) => {
      await repo.retireOtherLiveKeys(tx, purpose, kid, clock.now());
      await repo.upsertConfiguredKey(tx, { kid, purpose, publicKey: pair.publicKey.toString('base64'), createdAt: clock.now() });
    });
    return { kid, purpose, ...pair };
  }
  const { kid, seed } = await settledSeed(db, clock, keys, purpose, 32, (seed) => keyPairFromSeed(seed).publicKey);
  return { kid, purpose, ...keyPairFromSeed(seed) };
}

/**
 * The seed of the live generated key of a purpose: the stored one, or a new one generated once
 * and persisted with its public key (`publicKeyOf` derives it). The seed is stored sealed under
 * the data key (docs/operations.md, "Encryption at rest"), bound to its kid. Safe when several instances start
 * at once: the unique live-key index lets exactly one insert win, the others read the winner.
 */
export async function settledSeed(
  db: Db,
  clock: Clock,
  keys: DataKeys,
  purpose: string,
  seedBytes: number,
  publicKeyOf: (seed: Buffer) => Uint8Array,
): Promise<{ kid: string; seed: Buffer }> {
  for (let tries = 0; tries < 3; tries++) {
    const live = await repo.findLiveKey(db, purpose);
    if (live?.seed) return { kid: live.kid, seed: Buffer.from(keys.openText(signingSeedContext(live.kid), live.seed), 'base64') };
    if (live) {
      throw new Error(`the live ${purpose} key ${live.kid} was configured from the environment; set its seed again`);
    }
    const seed = randomBytes(seedBytes);
    const publicKey = publicKeyOf(seed);
    const kid = keyIdOf(publicKey);
    const won = await repo.insertGeneratedKey(db, {
      kid,
      purpose,
      publicKey: Buffer.from(publicKey).toString('base64'),
      seed: keys.sealText(signingSeedContext(kid), seed.toString('base64')),
      createdAt: clock.now(),
    });
    if (won) return { kid, seed };
  }
  throw new Error(`could not settle the live ${purpose} key`);
}

/** Every key of a purpose, live and retired, newest first: what verifiers need across rotations. */
export async function publishedKeys(db: Db, purpose: KeyPurpose): Promise<PublishedKey[]> {
  return (await repo.keysOf(db, purpose)).map((r) => ({
    kid: r.kid,
    purpose: r.purpose,
    publicKey: r.publicKey,
    createdAt: r.createdAt.toISOString(),
    retiredAt: r.retiredAt ? r.retiredAt.toISOString() : null,
  }));
}
