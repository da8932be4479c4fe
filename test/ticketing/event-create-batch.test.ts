import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { ticketingEvents } from '../../src/db/schema/ticketing.js';
import { createEventService } from '../../src/ticketing/events.js';
import type { EventCreate } from '../../src/ticketing/schemas.js';
import { UNKNOWN_ID, eventBody, organizer } from '../helpers/ticketing.js';
import { useTestApp } from '../helpers/suite.js';

describe('ticketing: event creations that arrive together', () => {
  const { ctx, org, other } = useTestApp({}, { org: organizer, other: organizer });

  const service = () => createEventService({ db: ctx.app.db, clock: ctx.clock, webhooks: ctx.app.webhooks });
  const body = (venueId: string, overrides: Record<string, unknown> = {}) => eventBody(venueId, overrides) as unknown as EventCreate;

  /**
   * Runs `run` with a statement-level trigger that logs how many events each insert statement
   * wrote, plus `rowTrigger` (a row-level BEFORE INSERT body) when given; answers the counts.
   */
  async function insertStatements(run: () => Promise<unknown>, rowTrigger?: string): Promise<number[]> {
    const db = ctx.app.db;
    await db.execute(sql`create table if not exists test_event_inserts (n int)`);
    await db.execute(sql`delete from test_event_inserts`);
    await db.execute(
      sql.raw(`create or replace function log_event_insert() returns trigger language plpgsql as $$
        begin insert into test_event_inserts select count(*) from new_rows; return null; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger log_event_insert after insert on ticketing_events
        referencing new table as new_rows for each statement execute function log_event_insert()`),
    );
    if (rowTrigger) {
      await db.execute(
        sql.raw(`create or replace function refuse_event() returns trigger language plpgsql as $$ begin ${rowTrigger} end $$`),
      );
      await db.execute(
        sql.raw(`create trigger refuse_event before insert on ticketing_events for each row execute function refuse_event()`),
      );
    }
    try {
      await run();
    } finally {
      await db.execute(sql`drop trigger log_event_insert on ticketing_events`);
      if (rowTrigger) await db.execute(sql`drop trigger refuse_event on ticketing_events`);
    }
    return rowsOf<{ n: number }>(await db.execute(sql`select n from test_event_inserts`)).map((r) => r.n);
  }

  it("writes them in one statement, each at its own profile's venue, each answered with its own event", async () => {
    const events = service();
    const categories = ['jazz', 'say "hi"', 'ü,{x}\\y', ''];
    let answers: string[] = [];
    const statements = await insertStatements(async () => {
      answers = await Promise.all([
        events.createJson(org.profileId, body(org.venueId, { name: 'first', categories })),
        events.createJson(other.profileId, body(other.venueId, { name: 'second' })),
        events.createJson(org.profileId, body(org.venueId, { name: 'third', eventEndsAt: '2027-01-01T02:00:00.000Z' })),
      ]);
    });
    expect(statements).toEqual([3]);
    const created = answers.map((text) => JSON.parse(text).data);
    expect(created.map((e) => e.name)).toEqual(['first', 'second', 'third']);
    expect(created.map((e) => e.placeId)).toEqual([org.venueId, other.venueId, org.venueId]);
    expect(created[2].endsAt).toBe('2027-01-01T02:00:00.000Z');
    const stored = await ctx.app.db
      .select({ id: ticketingEvents.id, profileId: ticketingEvents.profileId, categories: ticketingEvents.categories })
      .from(ticketingEvents)
      .where(
        inArray(
          ticketingEvents.id,
          created.map((e) => e.id),
        ),
      );
    expect(new Map(stored.map((s) => [s.id, s.profileId]))).toEqual(
      new Map([
        [created[0].id, org.profileId],
        [created[1].id, other.profileId],
        [created[2].id, org.profileId],
      ]),
    );
    expect(stored.find((s) => s.id === created[0].id)?.categories).toEqual(categories);
    for (const [i, owner] of [org, other, org].entries()) {
      expect((await owner.call('GET', `/events/${created[i].id}`)).json()).toEqual(JSON.parse(answers[i]!));
    }
  });

  it("answers 404 only for the events whose venue is not their profile's; the others are written", async () => {
    const events = service();
    const outcomes = await Promise.allSettled([
      events.createJson(org.profileId, body(org.venueId, { name: 'mine' })),
      events.createJson(org.profileId, body(other.venueId, { name: 'foreign venue' })),
      events.createJson(org.profileId, body(UNKNOWN_ID, { name: 'no venue' })),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(outcomes.slice(1).map((o) => (o as PromiseRejectedResult).reason.statusCode)).toEqual([404, 404]);
    const [written] = rowsOf<{ n: number }>(
      await ctx.app.db.execute(sql`select count(*)::int as n from ticketing_events where name in ('foreign venue', 'no venue')`),
    );
    expect(written!.n).toBe(0);
  });

  it('fails only the event the database refuses when several share a statement; the others are written alone', async () => {
    const events = service();
    let outcomes: PromiseSettledResult<string>[] = [];
    const statements = await insertStatements(async () => {
      outcomes = await Promise.allSettled(
        ['before', 'explode', 'after'].map((name) => events.createJson(org.profileId, body(org.venueId, { name }))),
      );
    }, `if new.name = 'explode' then raise exception 'refused by the test'; end if; return new;`);
    // The shared statement wrote nothing; then each event alone: two written, one refused.
    expect(statements).toEqual([1, 1]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ cause: { message: 'refused by the test' } });
    const names = rowsOf<{ name: string }>(
      await ctx.app.db.execute(sql`select name from ticketing_events where name in ('before', 'explode', 'after') order by name`),
    ).map((r) => r.name);
    expect(names).toEqual(['after', 'before']);
  });

  it('answers each of many concurrent POST /events with its own 201, and a foreign venue with 404, over HTTP', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 4 === 3 ? org : i % 2 ? other : org).call(
          'POST',
          '/events',
          eventBody(i % 4 === 3 ? other.venueId : i % 2 ? other.venueId : org.venueId, { name: `e${i}` }),
        ),
      ),
    );
    results.forEach((res, i) => {
      if (i % 4 === 3) expect(res.statusCode, `request ${i}`).toBe(404);
      else {
        expect(res.statusCode, `request ${i}`).toBe(201);
        expect(res.json().data.name).toBe(`e${i}`);
      }
    });
  });
});
