import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { signingKeys } from '../db/schema/signing-keys.js';
import type { Clock } from './clock.js';
import { sha256Hex } from './crypto.js';

export type KeyPurpose = 'governance' | 'attestation' | 'identity-webhook';

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

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The node:crypto key pair of a 32-byte Ed25519 seed. */
export function keyPairFromSeed(seed: Buffer): { privateKey: KeyObject; publicKeyObject: KeyObject; publicKey: Buffer } {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKeyObject = createPublicKey(privateKey);
  const jwk = publicKeyObject.export({ format: 'jwk' });
  return { privateKey, publicKeyObject, publicKey: Buffer.from(jwk.x!, 'base64url') };
}

/** Key ids are the first 16 hex characters of SHA-256 over the raw public key (CONTRACT §0). */
export function keyIdOf(publicKey: Uint8Array): string {
  return sha256Hex(publicKey).slice(0, 16);
}

/**
 * The live key of a purpose. A configured seed wins (and retires a different live key: rotation);
 * otherwise the stored key, or a new one generated once and persisted. Safe when several
 * instances start at once: the unique live-key index lets exactly one insert win.
 */
export async function liveSigningKey(db: Db, clock: Clock, purpose: KeyPurpose, configuredSeed?: Buffer): Promise<SigningKey> {
  if (configuredSeed) {
    const pair = keyPairFromSeed(configuredSeed);
    const kid = keyIdOf(pair.publicKey);
    await db.transaction(async (tx) => {
      await tx
        .update(signingKeys)
        .set({ retiredAt: clock.now() })
        .where(and(eq(signingKeys.purpose, purpose), isNull(signingKeys.retiredAt), ne(signingKeys.kid, kid)));
      await tx
        .insert(signingKeys)
        .values({ kid, purpose, publicKey: pair.publicKey.toString('base64'), seed: null, createdAt: clock.now() })
        .onConflictDoUpdate({ target: signingKeys.kid, set: { retiredAt: null } });
    });
    return { kid, purpose, ...pair };
  }
  for (let tries = 0; tries < 3; tries++) {
    const [live] = await db
      .select()
      .from(signingKeys)
      .where(and(eq(signingKeys.purpose, purpose), isNull(signingKeys.retiredAt)));
    if (live?.seed) {
      return { kid: live.kid, purpose, ...keyPairFromSeed(Buffer.from(live.seed, 'base64')) };
    }
    if (live) {
      throw new Error(`the live ${purpose} key ${live.kid} was configured from the environment; set its seed again`);
    }
    const seed = randomBytes(32);
    const pair = keyPairFromSeed(seed);
    const inserted = await db
      .insert(signingKeys)
      .values({
        kid: keyIdOf(pair.publicKey),
        purpose,
        publicKey: pair.publicKey.toString('base64'),
        seed: seed.toString('base64'),
        createdAt: clock.now(),
      })
      .onConflictDoNothing()
      .returning({ kid: signingKeys.kid });
    if (inserted.length === 1) return { kid: inserted[0]!.kid, purpose, ...pair };
  }
  throw new Error(`could not settle the live ${purpose} key`);
}

/** Every key of a purpose, live and retired, newest first: what verifiers need across rotations. */
export async function publishedKeys(db: Db, purpose: KeyPurpose): Promise<PublishedKey[]> {
  const rows = await db.select().from(signingKeys).where(eq(signingKeys.purpose, purpose));
  return rows
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((r) => ({
      kid: r.kid,
      purpose: r.purpose,
      publicKey: r.publicKey,
      createdAt: r.createdAt.toISOString(),
      retiredAt: r.retiredAt ? r.retiredAt.toISOString() : null,
    }));
}
