// Realistic data in bulk SQL, before the server starts: one organizer with 10,000 events, one
// event with 1,000 confirmed orders and their tickets, and the keys the scenarios use.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { issueApiKey } from '../src/auth/api-keys.js';
import { openDatabase, rowsOf, type Db } from '../src/db/client.js';
import { applyMigrations } from '../src/db/migrate.js';
import { systemClock } from '../src/lib/clock.js';

export interface Store {
  /** What the server and the reference process are started with. */
  env: Record<string, string>;
  kind: 'postgres' | 'pglite';
  drop(): Promise<void>;
}

export interface Seeded {
  profileId: string;
  venueId: string;
  eventId: string;
  bigEventId: string;
  ticketingKey: string;
  governanceKey: string;
  identityKey: string;
}

/** A fresh store: a new database on the PostgreSQL of DATABASE_URL, else a PGlite data directory; drop() removes it. */
export async function createStore(): Promise<Store> {
  const base = process.env.DATABASE_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (!base || base === 'memory://') {
    return { env: { DATA_DIR: dataDir }, kind: 'pglite', drop: async () => removeDir() };
  }
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    kind: 'postgres',
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      removeDir();
    },
  };
}

const one = async (db: Db, query: ReturnType<typeof sql>) => rowsOf<{ id: string }>(await db.execute(query))[0]!.id;

export async function seed(store: Store): Promise<Seeded> {
  const database = await openDatabase({ url: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR! });
  try {
    await applyMigrations(database);
    const db = database.db;
    const profileId = await one(
      db,
      sql`
      insert into profiles (name, plan, created_at, updated_at)
      values ('Bench organizer', 'ENTERPRISE', now(), now()) returning id`,
    );
    const venueId = await one(
      db,
      sql`
      insert into venues (profile_id, name, address, city, lat, lng, timezone, created_at)
      values (${profileId}, 'Bench hall', 'Hauptstrasse 1', 'Berlin', 52.52, 13.405, 'Europe/Berlin', now()) returning id`,
    );
    await db.execute(sql`
      insert into ticketing_events (profile_id, place_id, name, description, status, starts_at, ends_at, timezone,
        all_day, address, city, lat, lng, categories, email, website, ticket_mode, offers_vip_tables, created_at, updated_at)
      select ${profileId}, ${venueId}, 'Bench event ' || g, 'An evening of seeded music number ' || g,
        case when g % 7 = 0 then 'DRAFT' else 'ACTIVE' end,
        timestamptz '2027-01-01 19:00:00+00' + make_interval(hours => g),
        timestamptz '2027-01-01 23:00:00+00' + make_interval(hours => g),
        'Europe/Berlin', false, 'Hauptstrasse 1', 'Berlin', 52.52, 13.405, array['music', 'live'],
        'box-office@example.com', 'https://example.com/events/' || g, 'SERVICE', false, now(), now()
      from generate_series(1, 9999) as g`);
    const bigEventId = await one(
      db,
      sql`
      insert into ticketing_events (profile_id, place_id, name, description, status, starts_at, ends_at, timezone,
        all_day, address, city, lat, lng, categories, ticket_mode, offers_vip_tables, created_at, updated_at)
      values (${profileId}, ${venueId}, 'Bench festival', 'The sold-out one', 'ACTIVE', '2026-12-31 20:00:00+00',
        '2027-01-01 04:00:00+00', 'Europe/Berlin', false, 'Hauptstrasse 1', 'Berlin', 52.52, 13.405, array['festival'],
        'SERVICE', true, now(), now()) returning id`,
    );
    const ticketTypeId = await one(
      db,
      sql`
      insert into ticketing_ticket_types (event_id, name, kind, price_cents, quantity, sold, is_active, created_at)
      values (${bigEventId}, 'General admission', 'STANDARD', 2500, 2000, 1000, true, now()) returning id`,
    );
    await db.execute(sql`
      insert into ticketing_orders (profile_id, event_id, status, total_cents, currency, buyer_name, buyer_email, created_at, updated_at)
      select ${profileId}, ${bigEventId}, 'CONFIRMED', 2500, 'EUR', 'Buyer ' || g, 'buyer' || g || '@example.com',
        now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, 1000) as g`);
    await db.execute(sql`
      insert into ticketing_order_items (order_id, position, ticket_type_id, quantity, unit_price_cents)
      select id, 0, ${ticketTypeId}, 1, 2500 from ticketing_orders where event_id = ${bigEventId}`);
    await db.execute(sql`
      insert into ticketing_issued_tickets (order_id, event_id, ticket_type_id, quantity, holder_name, holder_email, created_at)
      select id, event_id, ${ticketTypeId}, 1, buyer_name, buyer_email, created_at from ticketing_orders where event_id = ${bigEventId}`);
    const eventId = await one(
      db,
      sql`
      select id from ticketing_events where profile_id = ${profileId} and name = 'Bench event 5000'`,
    );
    // Fresh bulk-loaded tables have no statistics and no visibility map yet; measure the
    // queries as a long-running server's database would run them, where autovacuum has
    // vacuumed and analyzed bulk inserts (an index-only scan reads the heap for every row
    // until the table is vacuumed).
    await db.execute(sql`vacuum analyze`);

    const ticketing = await issueApiKey(db, systemClock, {
      profileId,
      service: 'ticketing',
      scopes: ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'],
    });
    const governance = await issueApiKey(db, systemClock, {
      profileId,
      service: 'governance',
      scopes: ['governance:decide', 'governance:read'],
    });
    const identity = await issueApiKey(db, systemClock, { profileId, service: 'identity', role: 'backend' });
    return {
      profileId,
      venueId,
      eventId,
      bigEventId,
      ticketingKey: ticketing.key,
      governanceKey: governance.key,
      identityKey: identity.key,
    };
  } finally {
    await database.close();
  }
}

/** The body of a `POST /api/v1/events` the benches send: a draft at the seeded venue. */
export function newEvent(name: string, venueId: string) {
  return {
    name,
    description: 'Created under load',
    address: 'Hauptstrasse 1',
    lat: 52.52,
    lng: 13.405,
    categories: ['music'],
    placeId: venueId,
    eventStartsAt: '2027-06-01T19:00:00.000Z',
    eventEndsAt: '2027-06-01T23:00:00.000Z',
    timezone: 'Europe/Berlin',
  };
}
