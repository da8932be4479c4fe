import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { signingKeys } from '../db/schema/signing-keys.js';

/** All SQL over the signing keys: one live key per purpose (a unique index), retired keys kept for verifiers. */

type SigningKeyRow = typeof signingKeys.$inferSelect;

/** Retires every live key of `purpose` other than `kid`. */
export async function retireOtherLiveKeys(db: DbOrTx, purpose: string, kid: string, at: Date): Promise<void> {
  await db
    .update(signingKeys)
    .set({ retiredAt: at })
    .where(and(eq(signingKeys.purpose, purpose), isNull(signingKeys.retiredAt), ne(signingKeys.kid, kid)));
}

/** Stores a configured key (no seed: it lives in the environment) as live, reviving it if it was retired. */
export async function upsertConfiguredKey(
  db: DbOrTx,
  key: { kid: string; purpose: string; publicKey: string; createdAt: Date },
): Promise<void> {
  await db
    .insert(signingKeys)
    .values({ ...key, seed: null })
    .onConflictDoUpdate({ target: signingKeys.kid, set: { retiredAt: null } });
}

export async function findLiveKey(db: DbOrTx, purpose: string): Promise<SigningKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.purpose, purpose), isNull(signingKeys.retiredAt)));
  return row;
}

/** Inserts a generated live key; false when another instance's insert won (the live-key index refused this one). */
export async function insertGeneratedKey(
  db: DbOrTx,
  key: { kid: string; purpose: string; publicKey: string; seed: string; createdAt: Date },
): Promise<boolean> {
  const inserted = await db.insert(signingKeys).values(key).onConflictDoNothing().returning({ kid: signingKeys.kid });
  return inserted.length === 1;
}

/** Every key of a purpose, newest first. */
export async function keysOf(db: DbOrTx, purpose: string): Promise<SigningKeyRow[]> {
  return db.select().from(signingKeys).where(eq(signingKeys.purpose, purpose)).orderBy(desc(signingKeys.createdAt));
}
