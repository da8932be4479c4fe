import type { DbOrTx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { randomToken, sha256Hex } from '../lib/crypto.js';
import type { IdentityRole, KeyService } from '../db/vocabulary.js';
import { keyCacheOf, notifyApiKeysChanged } from './key-cache.js';
import { keyUseRecorderOf } from './key-usage.js';
import * as repo from './repo.js';
import type { KeyPrincipal } from './principal.js';

export { startKeyCache, notifyApiKeysChanged, type KeyCacheHandle } from './key-cache.js';
export { startKeyUseRecorder } from './key-usage.js';
export type { KeyPrincipal } from './principal.js';

const KEY_PREFIX: Record<KeyService, string> = {
  ticketing: 'tk_live_',
  identity: 'idv_live_',
  governance: 'gov_live_',
};

export interface ApiKeyGrant {
  profileId: string;
  service: KeyService;
  scopes?: string[];
  role?: IdentityRole;
  /** Who holds the key, in the operator's words. */
  name?: string;
  /** The person holding a reviewer key: keys of one holder are one reviewer under four-eyes review. */
  holder?: string;
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Makes a key: 32 random bytes behind a readable prefix. Only its hash is stored; the key is returned once. */
export async function issueApiKey(db: DbOrTx, clock: Clock, grant: ApiKeyGrant) {
  const key = `${KEY_PREFIX[grant.service]}${randomToken(32)}`;
  const row = await repo.insertKey(db, {
    profileId: grant.profileId,
    service: grant.service,
    scopes: grant.scopes ?? [],
    role: grant.role ?? null,
    keyHash: hashApiKey(key),
    prefix: key.slice(0, KEY_PREFIX[grant.service].length + 4),
    last4: key.slice(-4),
    name: grant.name ?? null,
    holder: grant.holder ?? null,
    createdAt: clock.now(),
  });
  return { row, key };
}

/** Revokes a key; every instance stops accepting it at once (their key caches are cleared). */
export async function revokeApiKey(db: DbOrTx, clock: Clock, id: string) {
  const row = await repo.revokeKey(db, id, clock.now());
  if (row) await notifyApiKeysChanged(db);
  return row;
}

/**
 * Finds the live key of `service` whose hash matches; null for unknown, revoked or another
 * service's key. Live keys are served from the process's key cache for a few seconds.
 */
export async function findPrincipal(db: DbOrTx, service: KeyService, key: string): Promise<KeyPrincipal | null> {
  const keyHash = hashApiKey(key);
  const cache = keyCacheOf(db);
  let row = cache?.get(keyHash) as repo.KeyRow | undefined;
  if (!row) {
    const started = cache?.begin() ?? 0;
    row = await repo.loadKey(db, keyHash);
    if (row && !row.revokedAt) cache?.set(keyHash, row, started);
  }
  if (!row || row.revokedAt || row.service !== service) return null;
  keyUseRecorderOf(db)?.noteUse(row.keyId);
  return {
    keyId: row.keyId,
    keyHash,
    profileId: row.profileId,
    plan: row.plan,
    service: row.service,
    scopes: [...row.scopes],
    role: row.role,
  };
}

/** The bearer credential of an Authorization header, or null when the header is not exactly `Bearer <token>`. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([^\s]+)$/.exec(header);
  return match ? match[1]! : null;
}
