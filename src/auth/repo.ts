import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { apiKeys, profiles } from '../db/schema/core.js';
import { isUuid } from '../lib/uuid.js';
import type { KeyPrincipal } from './principal.js';

/** All SQL over API keys: issue, list, revoke, and the lookup by hash that authenticates a request. */

export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** What the lookup by hash reads: the principal (its profile's plan joined in) and whether it was revoked. */
export type KeyRow = Omit<KeyPrincipal, 'keyHash'> & { revokedAt: Date | null };

export async function insertKey(db: DbOrTx, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('the key insert returned no row');
  return row;
}

/** Revokes a live key; none when the key is unknown, already revoked or the id is not a UUID. */
export async function revokeKey(db: DbOrTx, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

export async function loadKey(db: DbOrTx, keyHash: string): Promise<KeyRow | undefined> {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      profileId: apiKeys.profileId,
      service: apiKeys.service,
      scopes: apiKeys.scopes,
      role: apiKeys.role,
      revokedAt: apiKeys.revokedAt,
      plan: profiles.plan,
    })
    .from(apiKeys)
    .innerJoin(profiles, eq(profiles.id, apiKeys.profileId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row;
}

/** Keys oldest first: every key, or one profile's. */
export async function listApiKeys(db: DbOrTx, profileId?: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(profileId ? eq(apiKeys.profileId, profileId) : undefined)
    .orderBy(apiKeys.createdAt, apiKeys.id);
}

export async function findApiKey(db: DbOrTx, id: string): Promise<ApiKeyRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

/** The names of those of `ids` that belong to the profile and have one. */
export async function keyNames(db: DbOrTx, profileId: string, ids: string[]): Promise<Map<string, string>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return new Map();
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.profileId, profileId), inArray(apiKeys.id, valid), isNotNull(apiKeys.name)));
  return new Map(rows.map((r) => [r.id, r.name!]));
}

/** Who holds the key (null when the operator named nobody, or for an unknown id). */
export async function keyHolder(db: DbOrTx, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select({ holder: apiKeys.holder }).from(apiKeys).where(eq(apiKeys.id, id));
  return row?.holder ?? null;
}
