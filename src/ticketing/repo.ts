import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type DbOrTx } from '../db/client.js';
import { paged, type Window } from '../db/paged.js';
import { recordSet } from '../db/record-set.js';
import { prepared, rawRows } from '../db/prepared.js';
import { venues } from '../db/schema/core.js';
import { checkIns, issuedTickets, orderItems, orders, ticketTypes, ticketingEventCounts, ticketingEvents } from '../db/schema/ticketing.js';
import type { EventRow, OrderItemRow, OrderRow } from './views.js';
import { isUuid } from '../lib/uuid.js';

/** The SQL of ticketing. Every function takes the connection or the transaction to run on. */

// ---- events ----------------------------------------------------------------------------------

/** The profile's venue `id`; none for another profile's, an unknown id or one that is not a UUID. */
export async function findVenue(db: DbOrTx, profileId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const statement = prepared(db, 'ticketing_find_venue', (name) =>
    db
      .select()
      .from(venues)
      .where(and(eq(venues.id, sql.placeholder('id')), eq(venues.profileId, sql.placeholder('profileId'))))
      .prepare(name),
  );
  const [row] = await statement.execute({ id, profileId });
  return row;
}

/** An event by id; with `profileId`, only that profile's (another profile's event does not exist). None for a non-UUID id. */
export async function findEvent(db: DbOrTx, id: string, profileId?: string, opts: { forUpdate?: boolean } = {}) {
  if (!isUuid(id)) return undefined;
  if (profileId && !opts.forUpdate) {
    const statement = prepared(db, 'ticketing_find_event', (name) =>
      db
        .select()
        .from(ticketingEvents)
        .where(and(eq(ticketingEvents.id, sql.placeholder('id')), eq(ticketingEvents.profileId, sql.placeholder('profileId'))))
        .prepare(name),
    );
    const [row] = await statement.execute({ id, profileId });
    return row;
  }
  const where = profileId ? and(eq(ticketingEvents.id, id), eq(ticketingEvents.profileId, profileId)) : eq(ticketingEvents.id, id);
  const query = db.select().from(ticketingEvents).where(where);
  const [row] = await (opts.forUpdate ? query.for('update') : query);
  return row;
}

/** The API's envelope around an event's stored resource JSON (ticketingEvents.resourceJson). */
const eventBody = (resourceJson: string) => `{"success":true,"data":${resourceJson}}`;

/**
 * The profile's event `id` as the finished response body of GET /api/v1/events/{id}, its stored
 * resource JSON in the envelope; none for another profile's, an unknown id or one that is not a
 * UUID.
 */
export async function eventBodyJson(db: DbOrTx, profileId: string, id: string): Promise<string | undefined> {
  if (!isUuid(id)) return undefined;
  const statement = prepared(db, 'ticketing_event_json', (name) =>
    db
      .select({ json: ticketingEvents.resourceJson })
      .from(ticketingEvents)
      .where(and(eq(ticketingEvents.id, sql.placeholder('id')), eq(ticketingEvents.profileId, sql.placeholder('profileId'))))
      .prepare(name),
  );
  const [row] = await statement.execute({ id, profileId });
  return row && eventBody(row.json);
}

/**
 * A page of the profile's events, its number, size and total, as the finished response body
 * (the envelope of GET /api/v1/events in the OpenAPI document), in one round trip. The items are
 * the events' stored resource JSON, joined as they are: reading 20 or 100 rows of 15 columns
 * into objects and serializing them again cost the server more than the rest of the request,
 * and formatting them in PostgreSQL at each read cost it most of the page. The total comes from
 * the triggered per-status counters, not count(*): a profile's events are counted once, when
 * written. With the page comes the list's change count in the same snapshot (eventListState),
 * which the event page cache keeps it under (src/ticketing/page-cache.ts).
 */
export async function eventPageJson(
  db: DbOrTx,
  profileId: string,
  status: EventRow['status'] | undefined,
  w: Window & { page: number },
): Promise<{ body: string; changes: string }> {
  // One statement with and one without the status filter, so each keeps its own plan.
  const filtered = status !== undefined;
  const statement = prepared(db, filtered ? 'ticketing_events_page_by_status' : 'ticketing_events_page', (name) => {
    // A deferred join: the page's ids come from the (profile, starts_at, id) index, skipped rows
    // included, without reading those rows; only the page's own rows are then fetched, one
    // index lookup each. The lookup is a LATERAL subquery with a LIMIT (one row: the key's),
    // which PostgreSQL may not flatten into a join: so the plan is the same nested loop whatever
    // the page size, and it is planned once (named statements are generic, src/db/client.ts).
    // Flattened, the plan made without the LIMIT's value expected a tenth of the table and
    // hash-joined all of it.
    const pageIds = db
      .select({ id: ticketingEvents.id, startsAt: ticketingEvents.startsAt })
      .from(ticketingEvents)
      .where(
        and(
          eq(ticketingEvents.profileId, sql.placeholder('profileId')),
          filtered ? eq(ticketingEvents.status, sql.placeholder('status')) : undefined,
        ),
      )
      .orderBy(asc(ticketingEvents.startsAt), asc(ticketingEvents.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .as('page_ids');
    const e = alias(ticketingEvents, 'e');
    const row = db.select({ item: e.resourceJson }).from(e).where(eq(e.id, pageIds.id)).limit(1).as('event_row');
    // The items come as rows, one stored JSON text each, joined here: one text of the whole page
    // (string_agg) cost PostgreSQL more to send than the 100 rows (pgbench on the bench's data:
    // 712 against 2,917 pages/s on one connection). Each row carries the total and the change count too.
    return db
      .select({
        item: sql<string>`${row.item}`.as('item'),
        total: eventTotal(filtered).as('total'),
        changes: eventChanges(filtered).as('changes'),
      })
      .from(pageIds)
      .crossJoinLateral(row)
      .orderBy(pageIds.startsAt, pageIds.id)
      .prepare(name);
  });
  // Unmapped rows (rawRows): each is two texts and an int already.
  const rows = await rawRows<{ item: string; total: number; changes: string }>(statement, {
    profileId,
    status,
    limit: w.limit,
    offset: w.offset,
  });
  // A page past the end has no row to carry the total.
  const { total, changes } = rows[0] ?? (await eventListState(db, profileId, status));
  // page and limit are the validated integers of the query.
  const body = `{"success":true,"data":{"items":[${rows.map((r) => r.item).join(',')}],"page":${w.page},"limit":${w.limit},"total":${Number(total)}}}`;
  return { body, changes };
}

/**
 * A sum over the profile's counter rows (of one status when filtered): `n` is how many events
 * there are; `changes` how many changes were ever made to them, which every insert, update and
 * delete of an event adds to (migration 0010), so it differs from one read to the next exactly
 * when a change to the listed events committed between them.
 */
function counterSum(column: typeof ticketingEventCounts.n | typeof ticketingEventCounts.changes, filtered: boolean) {
  return sql`(select coalesce(sum(${column}), 0) from ${ticketingEventCounts} where ${and(
    eq(ticketingEventCounts.profileId, sql.placeholder('profileId')),
    filtered ? eq(ticketingEventCounts.status, sql.placeholder('status')) : undefined,
  )})`;
}

// The total as an int; the change count, a bigint sum, as text (compared, never computed with).
const eventTotal = (filtered: boolean) => sql<number>`${counterSum(ticketingEventCounts.n, filtered)}::int`;
const eventChanges = (filtered: boolean) => sql<string>`${counterSum(ticketingEventCounts.changes, filtered)}::text`;

/**
 * The listed events' total and change count, in one snapshot: one row of sums over the
 * profile's counter rows. The event page cache compares the count at every request.
 */
export async function eventListState(db: DbOrTx, profileId: string, status: EventRow['status'] | undefined) {
  const filtered = status !== undefined;
  const statement = prepared(db, filtered ? 'ticketing_events_state_by_status' : 'ticketing_events_state', (name) =>
    db
      .select({
        total: eventTotal(filtered).as('total'),
        changes: eventChanges(filtered).as('changes'),
      })
      .from(sql`(select 1) as one`)
      .prepare(name),
  );
  const [row] = await rawRows<{ total: number; changes: string }>(statement, { profileId, status });
  return row!;
}

/** A profile's events in every status or one, latest start first: one page and the total (the operator console's list). */
export function eventsOfProfile(db: DbOrTx, profileId: string, status: EventRow['status'] | undefined, w: Window) {
  if (!isUuid(profileId)) return Promise.resolve({ rows: [] as EventRow[], total: 0 });
  const where = and(eq(ticketingEvents.profileId, profileId), status ? eq(ticketingEvents.status, status) : undefined);
  return paged(
    db
      .select()
      .from(ticketingEvents)
      .where(where)
      .orderBy(desc(ticketingEvents.startsAt), desc(ticketingEvents.id))
      .limit(w.limit)
      .offset(w.offset),
    db.select({ n: count() }).from(ticketingEvents).where(where),
  );
}

/** What a new event is made of; the venue and its profile come from the venues table. */
export interface NewEvent {
  profileId: string;
  placeId: string;
  name: string;
  description: string;
  startsAt: Date;
  endsAt: Date | null;
  timezone: string | null;
  allDay: boolean;
  address: string;
  city: string | null;
  lat: number;
  lng: number;
  categories: string[];
  email: string | null;
  website: string | null;
  phoneNumber: string | null;
  ticketMode: EventRow['ticketMode'];
  ticketUrl: string | null;
  offersVipTables: boolean;
  at: Date;
}

/**
 * Creates several DRAFT events, each at its profile's venue `placeId`, in one statement (one
 * round trip, one commit, one run of the count trigger): the event creations that arrive
 * together (src/ticketing/events.ts). Answers, by the id given to each, the finished body of
 * its 201; an event whose venue is not its profile's is absent, with nothing written for it.
 */
export async function createEventsJson(db: DbOrTx, events: (NewEvent & { id: string })[]): Promise<Map<string, string>> {
  const rows = events.map((e) => ({
    id: e.id,
    profile_id: e.profileId,
    place_id: e.placeId,
    name: e.name,
    description: e.description,
    starts_at: e.startsAt.toISOString(),
    ends_at: e.endsAt?.toISOString() ?? null,
    timezone: e.timezone,
    all_day: e.allDay,
    address: e.address,
    city: e.city,
    lat: e.lat,
    lng: e.lng,
    // One array element per event: the categories travel as JSON text.
    categories: JSON.stringify(e.categories),
    email: e.email,
    website: e.website,
    phone_number: e.phoneNumber,
    ticket_mode: e.ticketMode,
    ticket_url: e.ticketUrl,
    offers_vip_tables: e.offersVipTables,
    at: e.at.toISOString(),
  }));
  const columns =
    'id uuid, profile_id uuid, place_id uuid, name text, description text, starts_at timestamptz, ends_at timestamptz, ' +
    'timezone text, all_day boolean, address text, city text, lat float8, lng float8, categories jsonb, ' +
    'email text, website text, phone_number text, ticket_mode text, ticket_url text, offers_vip_tables boolean, at timestamptz';
  const result = await db.execute(sql`
    insert into ${ticketingEvents} (id, profile_id, place_id, name, description, status, starts_at, ends_at, timezone, all_day,
      address, city, lat, lng, categories, email, website, phone_number, ticket_mode, ticket_url, offers_vip_tables, image_url,
      created_at, updated_at, resource_json)
    select r.id, v.profile_id, v.id, r.name, r.description, 'DRAFT', r.starts_at, r.ends_at, r.timezone, r.all_day,
      r.address, r.city, r.lat, r.lng, array(select jsonb_array_elements_text(r.categories)), r.email, r.website, r.phone_number,
      r.ticket_mode, r.ticket_url, r.offers_vip_tables, null, r.at, r.at, ''
    from ${recordSet(rows, columns)}
    join ${venues} v on v.id = r.place_id and v.profile_id = r.profile_id
    returning id, resource_json`);
  return new Map(rowsOf<{ id: string; resource_json: string }>(result).map((row) => [row.id, eventBody(row.resource_json)]));
}

/**
 * Writes `set` and moves updatedAt to `now`, or 1 ms past its last value when the clock has not
 * moved since, so every successful change is visible in updatedAt. `fromStatus` guards the change.
 */
export async function updateEvent(
  db: DbOrTx,
  id: string,
  set: Partial<typeof ticketingEvents.$inferInsert>,
  now: Date,
  fromStatus?: EventRow['status'][],
) {
  const [row] = await db
    .update(ticketingEvents)
    .set({ ...set, updatedAt: sql`greatest(${now.toISOString()}::timestamptz, ${ticketingEvents.updatedAt} + interval '1 millisecond')` })
    .where(and(eq(ticketingEvents.id, id), fromStatus ? inArray(ticketingEvents.status, fromStatus) : undefined))
    .returning();
  return row;
}

// ---- ticket types ------------------------------------------------------------------------------

export function listTicketTypes(db: DbOrTx, eventId: string) {
  return db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId)).orderBy(asc(ticketTypes.createdAt), asc(ticketTypes.id));
}

export function findTicketTypes(db: DbOrTx, eventId: string, ids: string[]) {
  return db
    .select()
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), inArray(ticketTypes.id, ids)));
}

export async function insertTicketType(db: DbOrTx, values: typeof ticketTypes.$inferInsert) {
  const [row] = await db.insert(ticketTypes).values(values).returning();
  return row!;
}

/** Takes `units` from stock in one conditional statement: false when fewer are left, and nothing changes. */
export async function takeStock(db: DbOrTx, ticketTypeId: string, units: number): Promise<boolean> {
  const rows = await db
    .update(ticketTypes)
    .set({ sold: sql`${ticketTypes.sold} + ${units}` })
    .where(and(eq(ticketTypes.id, ticketTypeId), sql`${ticketTypes.sold} + ${units} <= ${ticketTypes.quantity}`))
    .returning({ id: ticketTypes.id });
  return rows.length === 1;
}

export async function returnStock(db: DbOrTx, ticketTypeId: string, units: number): Promise<void> {
  await db
    .update(ticketTypes)
    .set({ sold: sql`greatest(${ticketTypes.sold} - ${units}, 0)` })
    .where(eq(ticketTypes.id, ticketTypeId));
}

// ---- orders ----------------------------------------------------------------------------------

export async function insertOrder(
  db: DbOrTx,
  values: typeof orders.$inferInsert,
  items: Omit<typeof orderItems.$inferInsert, 'orderId'>[],
) {
  const [row] = await db.insert(orders).values(values).returning();
  const itemRows = await db
    .insert(orderItems)
    .values(items.map((i) => ({ ...i, orderId: row!.id })))
    .returning();
  return { order: row!, items: itemRows.sort((a, b) => a.position - b.position) };
}

export async function findOrder(db: DbOrTx, id: string, profileId?: string, opts: { forUpdate?: boolean } = {}) {
  if (!isUuid(id)) return undefined;
  const where = profileId ? and(eq(orders.id, id), eq(orders.profileId, profileId)) : eq(orders.id, id);
  const query = db.select().from(orders).where(where);
  const [row] = await (opts.forUpdate ? query.for('update') : query);
  return row;
}

export async function itemsOf(db: DbOrTx, orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.position));
  for (const row of rows) byOrder.get(row.orderId)!.push(row);
  return byOrder;
}

export function listOrders(db: DbOrTx, eventId: string, status: string | undefined, w: Window) {
  const where = and(eq(orders.eventId, eventId), status !== undefined ? eq(orders.status, status as OrderRow['status']) : undefined);
  return paged(
    db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id)).limit(w.limit).offset(w.offset),
    db.select({ n: count() }).from(orders).where(where),
  );
}

export async function setOrderStatus(db: DbOrTx, id: string, status: OrderRow['status'], now: Date) {
  const [row] = await db.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, id)).returning();
  return row!;
}

// ---- issued tickets ----------------------------------------------------------------------------

export async function insertTickets(db: DbOrTx, values: (typeof issuedTickets.$inferInsert)[]) {
  if (values.length === 0) return [];
  return db.insert(issuedTickets).values(values).returning();
}

export async function voidTickets(db: DbOrTx, orderId: string, now: Date) {
  await db
    .update(issuedTickets)
    .set({ voidedAt: now })
    .where(and(eq(issuedTickets.orderId, orderId), isNull(issuedTickets.voidedAt)));
}

/** Tickets of confirmed orders only: a refunded order's tickets are void and not listed. */
export function listTickets(db: DbOrTx, eventId: string, w: Window) {
  const where: SQL = and(eq(issuedTickets.eventId, eventId), isNull(issuedTickets.voidedAt), eq(orders.status, 'CONFIRMED'))!;
  return paged(
    db
      .select({ ticket: issuedTickets })
      .from(issuedTickets)
      .innerJoin(orders, eq(orders.id, issuedTickets.orderId))
      .where(where)
      .orderBy(asc(issuedTickets.createdAt), asc(issuedTickets.id))
      .limit(w.limit)
      .offset(w.offset)
      .then((rows) => rows.map((r) => r.ticket)),
    db.select({ n: count() }).from(issuedTickets).innerJoin(orders, eq(orders.id, issuedTickets.orderId)).where(where),
  );
}

/** A scanned ticket with what the door needs to judge it: its order's status and its event's profile. */
export async function findTicketForScan(db: DbOrTx, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ ticket: issuedTickets, orderStatus: orders.status, profileId: ticketingEvents.profileId })
    .from(issuedTickets)
    .innerJoin(orders, eq(orders.id, issuedTickets.orderId))
    .innerJoin(ticketingEvents, eq(ticketingEvents.id, issuedTickets.eventId))
    .where(eq(issuedTickets.id, id))
    .for('update', { of: issuedTickets });
  return row;
}

/** Marks the first entry; undefined when the ticket was already in (a concurrent scan won). */
export async function checkInTicket(db: DbOrTx, id: string, now: Date) {
  const [row] = await db
    .update(issuedTickets)
    .set({ checkedIn: true, checkedInAt: now })
    .where(and(eq(issuedTickets.id, id), eq(issuedTickets.checkedIn, false)))
    .returning();
  return row;
}

/** Sets the order's checkedIn once every live ticket of it is in. */
export async function checkInOrderIfComplete(db: DbOrTx, orderId: string, now: Date) {
  await db
    .update(orders)
    .set({ checkedIn: true, checkedInAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.checkedIn, false),
        sql`not exists (select 1 from ${issuedTickets} where ${issuedTickets.orderId} = ${orderId} and ${issuedTickets.voidedAt} is null and ${issuedTickets.checkedIn} = false)`,
      ),
    );
}

// ---- check-ins ------------------------------------------------------------------------------------

export async function insertCheckIn(db: DbOrTx, values: typeof checkIns.$inferInsert) {
  const [row] = await db.insert(checkIns).values(values).returning();
  return row!;
}

export function listCheckIns(db: DbOrTx, eventId: string, w: Window) {
  const where = eq(checkIns.eventId, eventId);
  return paged(
    db.select().from(checkIns).where(where).orderBy(desc(checkIns.scannedAt), desc(checkIns.id)).limit(w.limit).offset(w.offset),
    db.select({ n: count() }).from(checkIns).where(where),
  );
}
