import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, index, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { EVENT_STATUSES, ORDER_STATUSES, TICKET_TYPE_KINDS } from '../vocabulary.js';
import { profiles, ts, venues } from './core.js';

/** An event of one profile at one of its venues (placeId). */
export const ticketingEvents = pgTable(
  'ticketing_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    placeId: uuid('place_id')
      .notNull()
      .references(() => venues.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: EVENT_STATUSES }).notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at'),
    timezone: text('timezone'),
    allDay: boolean('all_day').notNull(),
    address: text('address').notNull(),
    city: text('city'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    categories: text('categories').array().notNull(),
    email: text('email'),
    website: text('website'),
    phoneNumber: text('phone_number'),
    ticketMode: text('ticket_mode', { enum: ['SERVICE', 'EXTERNAL', 'FREE'] }).notNull(),
    ticketUrl: text('ticket_url'),
    offersVipTables: boolean('offers_vip_tables').notNull().default(false),
    imageUrl: text('image_url'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /**
     * The event as the API writes it (the `data` of GET /api/v1/events/{id}), kept by a trigger
     * on every insert and update (hand-written: migration 0006_event_resource_json), so reads
     * send it as it is instead of formatting every row again. What an insert gives is replaced.
     */
    resourceJson: text('resource_json').notNull(),
  },
  (t) => [index('ticketing_events_profile_starts_idx').on(t.profileId, t.startsAt, t.id)],
);

/**
 * How many events each profile has in each status, kept by statement triggers on
 * ticketing_events (hand-written: migrations 0001_triggers and 0005_event_count_shards), so a
 * list's `total` reads a few rows instead of counting every event of the profile on each page.
 */
export const ticketingEventCounts = pgTable(
  'ticketing_event_counts',
  {
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    status: text('status', { enum: EVENT_STATUSES }).notNull(),
    /**
     * Each (profile, status) count is spread over 16 rows, the event's id choosing one: events
     * created at once by one profile then rarely wait on each other's counter row, which each
     * insert keeps locked until it commits. A total is the sum over the shards.
     */
    shard: smallint('shard').notNull().default(0),
    n: integer('n').notNull(),
    /**
     * Changes to the shard's events: each row a statement inserts, updates or deletes adds to it
     * (an update on its old and its new status; migration 0010). Never decreases, so the sum
     * over a profile's rows moves with every committed change to its event list: a page built
     * while the sum was S is still the page while it is S (src/ticketing/page-cache.ts).
     */
    changes: bigint('changes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.status, t.shard] })],
);

/** Stock lives here: `sold` counts units of confirmed orders and can never pass `quantity`. */
export const ticketTypes = pgTable(
  'ticketing_ticket_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => ticketingEvents.id),
    name: text('name').notNull(),
    description: text('description'),
    kind: text('kind', { enum: TICKET_TYPE_KINDS }).notNull(),
    partySize: integer('party_size'),
    priceCents: integer('price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    sold: integer('sold').notNull().default(0),
    salesEndAt: ts('sales_end_at'),
    isActive: boolean('is_active').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('ticketing_ticket_types_event_idx').on(t.eventId, t.createdAt),
    check('ticketing_ticket_types_stock', sql`${t.sold} >= 0 and ${t.sold} <= ${t.quantity}`),
  ],
);

export const orders = pgTable(
  'ticketing_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => ticketingEvents.id),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    buyerName: text('buyer_name'),
    buyerEmail: text('buyer_email'),
    checkedIn: boolean('checked_in').notNull().default(false),
    checkedInAt: ts('checked_in_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('ticketing_orders_event_created_idx').on(t.eventId, t.createdAt, t.id)],
);

export const orderItems = pgTable(
  'ticketing_order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    position: integer('position').notNull(),
    ticketTypeId: uuid('ticket_type_id').references(() => ticketTypes.id),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
  },
  (t) => [index('ticketing_order_items_order_idx').on(t.orderId, t.position)],
);

/** One admission: issued when its order is confirmed, voided when it is refunded. */
export const issuedTickets = pgTable(
  'ticketing_issued_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => ticketingEvents.id),
    ticketTypeId: uuid('ticket_type_id').references(() => ticketTypes.id),
    quantity: integer('quantity').notNull(),
    holderName: text('holder_name'),
    holderEmail: text('holder_email'),
    checkedIn: boolean('checked_in').notNull().default(false),
    checkedInAt: ts('checked_in_at'),
    voidedAt: ts('voided_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('ticketing_issued_tickets_event_created_idx').on(t.eventId, t.createdAt, t.id),
    index('ticketing_issued_tickets_order_idx').on(t.orderId),
  ],
);

/** A door scan, whatever its result; `ticketId` is the scanned value when it named a real ticket. */
export const checkIns = pgTable(
  'ticketing_check_ins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => ticketingEvents.id),
    ticketId: uuid('ticket_id').references(() => issuedTickets.id),
    orderId: uuid('order_id').references(() => orders.id),
    result: text('result', { enum: ['ALLOW', 'DENY', 'FLAG'] }),
    reasonCode: text('reason_code'),
    scannedAt: ts('scanned_at').notNull(),
  },
  (t) => [index('ticketing_check_ins_event_scanned_idx').on(t.eventId, t.scannedAt, t.id)],
);
