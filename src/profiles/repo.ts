import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { paged, type Window } from '../db/paged.js';
import { profiles, venues } from '../db/schema/core.js';
import { isUuid } from '../lib/uuid.js';

/** All SQL over profiles (the tenants) and their venues; their API keys' SQL is in src/auth/repo.ts. */

export type ProfileRow = typeof profiles.$inferSelect;
export type VenueRow = typeof venues.$inferSelect;

export async function insertProfile(db: DbOrTx, values: typeof profiles.$inferInsert): Promise<ProfileRow> {
  const [row] = await db.insert(profiles).values(values).returning();
  if (!row) throw new Error('the profile insert returned no row');
  return row;
}

/** The profile of `id`; none for an unknown id or one that is not a UUID (as every lookup here). */
export async function findProfile(db: DbOrTx, id: string): Promise<ProfileRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
  return row;
}

export async function profileExists(db: DbOrTx, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, id));
  return rows.length > 0;
}

export async function updateProfile(
  db: DbOrTx,
  id: string,
  changes: Partial<Pick<ProfileRow, 'name' | 'plan' | 'reviewPolicy' | 'identityRetentionDays' | 'privacyPolicyUrl'>> & { updatedAt: Date },
): Promise<ProfileRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.update(profiles).set(changes).where(eq(profiles.id, id)).returning();
  return row;
}

export async function insertVenue(db: DbOrTx, values: typeof venues.$inferInsert): Promise<VenueRow> {
  const [row] = await db.insert(venues).values(values).returning();
  if (!row) throw new Error('the venue insert returned no row');
  return row;
}

/** Every profile, newest first: one page and the total (the operator console's list). */
export function profilesPage(db: DbOrTx, w: Window): Promise<{ rows: ProfileRow[]; total: number }> {
  return paged(
    db.select().from(profiles).orderBy(desc(profiles.createdAt), desc(profiles.id)).limit(w.limit).offset(w.offset),
    db.select({ n: count() }).from(profiles),
  );
}

/** A profile's venues, oldest first (the id breaks a tie of creation times). */
export async function listVenues(db: DbOrTx, profileId: string): Promise<VenueRow[]> {
  if (!isUuid(profileId)) return [];
  return db.select().from(venues).where(eq(venues.profileId, profileId)).orderBy(asc(venues.createdAt), asc(venues.id));
}

/** Changes a venue of `profileId`; none when the venue is unknown or belongs to another profile. */
export async function updateVenue(
  db: DbOrTx,
  profileId: string,
  id: string,
  changes: Partial<Pick<VenueRow, 'name' | 'address' | 'city' | 'lat' | 'lng' | 'timezone'>>,
): Promise<VenueRow | undefined> {
  if (!isUuid(profileId) || !isUuid(id)) return undefined;
  const [row] = await db
    .update(venues)
    .set(changes)
    .where(and(eq(venues.id, id), eq(venues.profileId, profileId)))
    .returning();
  return row;
}
