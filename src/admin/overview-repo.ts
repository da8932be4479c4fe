import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { profiles } from '../db/schema/core.js';
import { governanceAgents, governanceDelegations } from '../db/schema/governance.js';
import { identityVerifications } from '../db/schema/identity.js';
import { ticketingEvents } from '../db/schema/ticketing.js';

/** The reads behind the operator console's lists: one page and the total, newest first unless said otherwise. */

export interface Page {
  page: number;
  limit: number;
}
const offset = ({ page, limit }: Page) => (page - 1) * limit;

async function total(
  db: DbOrTx,
  table: typeof profiles | typeof identityVerifications | typeof ticketingEvents,
  where?: SQL,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(table as typeof profiles)
    .where(where);
  return Number(row?.n ?? 0);
}

export async function profilesPage(db: DbOrTx, page: Page) {
  const items = await db
    .select()
    .from(profiles)
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(page.limit)
    .offset(offset(page));
  return { items, total: await total(db, profiles) };
}

export type VerificationStatus = (typeof identityVerifications.$inferSelect)['status'];

export async function verificationsPage(db: DbOrTx, profileId: string, status: VerificationStatus | undefined, page: Page) {
  const where = and(eq(identityVerifications.profileId, profileId), status ? eq(identityVerifications.status, status) : undefined);
  const items = await db
    .select()
    .from(identityVerifications)
    .where(where)
    .orderBy(desc(identityVerifications.createdAt), desc(identityVerifications.id))
    .limit(page.limit)
    .offset(offset(page));
  return { items, total: await total(db, identityVerifications, where) };
}

export type EventStatus = (typeof ticketingEvents.$inferSelect)['status'];

export async function eventsPage(db: DbOrTx, profileId: string, status: EventStatus | undefined, page: Page) {
  const where = and(eq(ticketingEvents.profileId, profileId), status ? eq(ticketingEvents.status, status) : undefined);
  const items = await db
    .select()
    .from(ticketingEvents)
    .where(where)
    .orderBy(desc(ticketingEvents.startsAt), desc(ticketingEvents.id))
    .limit(page.limit)
    .offset(offset(page));
  return { items, total: await total(db, ticketingEvents, where) };
}

export async function agentsOf(db: DbOrTx, profileId: string) {
  return db
    .select()
    .from(governanceAgents)
    .where(eq(governanceAgents.profileId, profileId))
    .orderBy(asc(governanceAgents.createdAt), asc(governanceAgents.id));
}

export async function delegationsOfProfile(db: DbOrTx, profileId: string) {
  return db
    .select()
    .from(governanceDelegations)
    .where(eq(governanceDelegations.profileId, profileId))
    .orderBy(desc(governanceDelegations.createdAt), desc(governanceDelegations.id));
}
