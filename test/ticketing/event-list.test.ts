import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { findEvent } from '../../src/ticketing/repo.js';
import { eventView } from '../../src/ticketing/views.js';
import { useTestApp } from '../helpers/suite.js';
import { draftEvent, eventBody, organizer } from '../helpers/ticketing.js';

describe('ticketing: GET /events (paging, filter, order)', () => {
  const { ctx, org, other, writer } = useTestApp({}, { org: organizer, other: organizer, writer: organizer });
  const ids: string[] = [];
  beforeAll(async () => {
    // 5 events, created out of start order; two share a start (id breaks the tie).
    const starts = [
      '2027-03-01T10:00:00.000Z',
      '2027-01-01T10:00:00.000Z',
      '2027-02-01T10:00:00.000Z',
      '2027-02-01T10:00:00.000Z',
      '2027-04-01T10:00:00.000Z',
    ];
    for (const eventStartsAt of starts) ids.push((await draftEvent(org, { eventStartsAt })).id);
    await ctx.admin('POST', `/events/${ids[0]}/publish`);
    await ctx.admin('POST', `/events/${ids[4]}/publish`);
    await ctx.admin('POST', `/events/${ids[1]}/cancel`);
    await draftEvent(other);
  });

  const expectedOrder = () => {
    const tied = [ids[2]!, ids[3]!].sort();
    return [ids[1], ...tied, ids[0], ids[4]];
  };

  it('lists only the caller’s events, by startsAt ascending with id breaking ties, with default paging', async () => {
    const res = await org.call('GET', '/events');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ success: true, data: { items: expect.any(Array), page: 1, limit: 20, total: 5 } });
    expect(body.data.items.map((e: { id: string }) => e.id)).toEqual(expectedOrder());
    const theirs = (await other.call('GET', '/events')).json().data;
    expect(theirs.total).toBe(1);
    expect(ids).not.toContain(theirs.items[0].id);
  });

  it('pages: limit 1, last page, page past the end, limit 100', async () => {
    const all = expectedOrder();
    for (let page = 1; page <= 5; page++) {
      const data = (await org.call('GET', `/events?limit=1&page=${page}`)).json().data;
      expect(data).toMatchObject({ page, limit: 1, total: 5 });
      expect(data.items.map((e: { id: string }) => e.id)).toEqual([all[page - 1]]);
    }
    const last = (await org.call('GET', '/events?limit=2&page=3')).json().data;
    expect(last.items.map((e: { id: string }) => e.id)).toEqual([all[4]]);
    const past = (await org.call('GET', '/events?limit=2&page=4')).json().data;
    expect(past).toEqual({ items: [], page: 4, limit: 2, total: 5 });
    const wide = (await org.call('GET', '/events?limit=100')).json().data;
    expect(wide).toMatchObject({ page: 1, limit: 100, total: 5 });
    expect(wide.items).toHaveLength(5);
  });

  it('writes the 201 of POST /events, each item and GET /events/{id} exactly as the server writes an event: keys in order, JSON in UTF-8', async () => {
    // The creation, pages and single reads send the JSON PostgreSQL stored with the row (a
    // trigger, migration 0006); every other answer with an event is the server's (eventView).
    // Text that JSON must escape, nulls and both kinds of time must come out alike.
    const tricky = await draftEvent(writer, {
      name: 'Quotes " and \\ backslash, tab\t, newline\n, ü ✓ 🎷',
      description: '</script><b>{"not": "json"}</b>',
      eventStartsAt: '2027-05-01T00:00:00.000Z',
      eventEndsAt: '2027-05-02T00:00:00.000Z',
      timezone: 'Europe/Berlin',
      city: 'Hamburg',
      ticketMode: 'EXTERNAL',
      ticketUrl: 'https://tickets.example.com/a',
    });
    const posted = await writer.call('POST', '/events', eventBody(writer.venueId, { eventStartsAt: '2027-06-01T18:30:00.123Z' }));
    expect(posted.statusCode).toBe(201);
    expect(posted.headers['content-type']).toBe('application/json; charset=utf-8');
    const plain = posted.json().data as Record<string, unknown>;
    const page = await writer.call('GET', '/events');
    expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
    const items = page.json().data.items as Record<string, unknown>[];
    expect(items.map((e) => e.id)).toEqual([tricky.id, plain.id]);
    for (const [i, created] of [tricky, plain].entries()) {
      const serverWritten = eventView((await findEvent(ctx.app.db, String(created.id)))!);
      const single = await writer.call('GET', `/events/${created.id}`);
      expect(single.headers['content-type']).toBe('application/json; charset=utf-8');
      for (const written of [created, items[i]!, single.json().data]) {
        expect(written).toEqual(serverWritten);
        expect(Object.keys(written)).toEqual(Object.keys(serverWritten));
      }
    }
    expect(items[0]).toMatchObject({ name: tricky.name, endsAt: '2027-05-02T00:00:00.000Z', allDay: false });
    expect(items[1]).toMatchObject({ endsAt: null, city: null, timezone: null, imageUrl: null, startsAt: '2027-06-01T18:30:00.123Z' });

    // A change rewrites the stored JSON: reads answer what the change answered.
    ctx.clock.advance(1_000);
    const patched = await writer.call('PATCH', `/events/${tricky.id}`, { name: 'Renamed ✓', eventEndsAt: '2027-05-03T00:00:00.000Z' });
    expect(patched.statusCode).toBe(200);
    const published = (await ctx.admin('POST', `/events/${tricky.id}/publish`)) as { data: Record<string, unknown> };
    const changed = (await writer.call('GET', `/events/${tricky.id}`)).json().data;
    expect(changed).toEqual(published.data);
    expect(changed).toMatchObject({ name: 'Renamed ✓', status: 'ACTIVE', endsAt: '2027-05-03T00:00:00.000Z' });
    expect(changed.updatedAt).not.toBe(tricky.updatedAt);
    expect((await writer.call('GET', '/events')).json().data.items[0]).toEqual(changed);
  });

  it('filters by status', async () => {
    const active = (await org.call('GET', '/events?status=ACTIVE')).json().data;
    expect(active.total).toBe(2);
    expect(active.items.map((e: { id: string }) => e.id)).toEqual([ids[0], ids[4]]);
    expect((await org.call('GET', '/events?status=CANCELLED')).json().data.items.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    expect((await org.call('GET', '/events?status=DRAFT&limit=1')).json().data).toMatchObject({ total: 2, limit: 1 });
    expect((await org.call('GET', '/events?status=ARCHIVED')).json().data).toEqual({ items: [], page: 1, limit: 20, total: 0 });
  });

  it('counts rows written by bulk SQL too: inserted, moved between statuses, deleted', async () => {
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          ['', '?status=DRAFT', '?status=ARCHIVED'].map(async (q) => [q, (await org.call('GET', `/events${q}`)).json().data.total]),
        ),
      );
    const before = await totals();
    const db = ctx.app.db;
    // A plain table: on PostgreSQL each statement may run on another pooled connection.
    const copied = sql.raw(`copied_events_${Date.now()}`);
    await db.execute(
      sql`create table ${copied} as select * from ticketing_events where profile_id = ${org.profileId} and status = 'DRAFT'`,
    );
    await db.execute(sql`update ${copied} set id = gen_random_uuid()`);
    await db.execute(sql`insert into ticketing_events select * from ${copied}`);
    expect(await totals()).toEqual({ '': before['']! + 2, '?status=DRAFT': before['?status=DRAFT']! + 2, '?status=ARCHIVED': 0 });
    await db.execute(sql`update ticketing_events set status = 'ARCHIVED' where id in (select id from ${copied})`);
    expect(await totals()).toEqual({ '': before['']! + 2, '?status=DRAFT': before['?status=DRAFT'], '?status=ARCHIVED': 2 });
    await db.execute(sql`delete from ticketing_events where id in (select id from ${copied})`);
    await db.execute(sql`drop table ${copied}`);
    expect(await totals()).toEqual(before);
  });

  it.each([
    ['limit=0', 'querystring.limit'],
    ['limit=101', 'querystring.limit'],
    ['page=0', 'querystring.page'],
    ['page=-1', 'querystring.page'],
    ['page=1.5', 'querystring.page'],
    ['limit=ten', 'querystring.limit'],
    ['limit=', 'querystring.limit'],
    ['status=OPEN', 'querystring.status'],
    ['status=active', 'querystring.status'],
  ])('answers 400 VALIDATION_ERROR with details for %s', async (query, path) => {
    const res = await org.call('GET', `/events?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: [{ path, message: expect.any(String) }] },
    });
  });
});

describe('ticketing: event counts behind list totals', () => {
  const { ctx, org } = useTestApp({}, { org: organizer });

  it('spreads a profile’s counts over shard rows that add up to its events, none below zero', async () => {
    // Created at once, as a partner importing a season does: each insert locks one shard's row.
    const created = await Promise.all(Array.from({ length: 24 }, () => draftEvent(org)));
    for (const event of created.slice(0, 6)) await ctx.admin('POST', `/events/${event.id}/publish`);
    await ctx.admin('POST', `/events/${created[0]!.id}/cancel`);
    const shards = rowsOf<{ status: string; shard: number; n: number }>(
      await ctx.app.db.execute(sql`select status, shard, n from ticketing_event_counts where profile_id = ${org.profileId}`),
    );
    const counted = rowsOf<{ status: string; n: number }>(
      await ctx.app.db.execute(
        sql`select status, count(*)::int as n from ticketing_events where profile_id = ${org.profileId} group by status`,
      ),
    );
    const summed = new Map<string, number>();
    for (const row of shards) summed.set(row.status, (summed.get(row.status) ?? 0) + row.n);
    expect(Object.fromEntries([...summed].filter(([, n]) => n !== 0))).toEqual(Object.fromEntries(counted.map((r) => [r.status, r.n])));
    expect(Object.fromEntries(counted.map((r) => [r.status, r.n]))).toEqual({ DRAFT: 18, ACTIVE: 5, CANCELLED: 1 });
    expect(new Set(shards.map((r) => r.shard)).size).toBeGreaterThan(1);
    expect(shards.every((r) => r.n >= 0)).toBe(true);
    expect((await org.call('GET', '/events?status=DRAFT&limit=1')).json().data.total).toBe(18);
  });
});
