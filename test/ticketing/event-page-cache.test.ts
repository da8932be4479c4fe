import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventPageJson } from '../../src/ticketing/repo.js';
import { createEventPageCache, pageKey, type CachedPage } from '../../src/ticketing/page-cache.js';
import { buildTestApp, usingPostgres, type TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { draftEvent, organizer, partnerCall, type Organizer } from '../helpers/ticketing.js';

/** A page source that counts its reads, over a change count the test moves. */
function source(state: { changes: number; body: string }) {
  const calls = { changes: 0, reads: 0 };
  return {
    calls,
    src: {
      changes: async () => {
        calls.changes += 1;
        return String(state.changes);
      },
      read: async (): Promise<CachedPage> => {
        calls.reads += 1;
        return { body: state.body, changes: String(state.changes) };
      },
    },
  };
}

describe('event page cache (pure)', () => {
  it('reads a page once, then answers it while the change count stays, and reads it again once it moves', async () => {
    const cache = createEventPageCache(1000);
    const state = { changes: 7, body: 'page at 7' };
    const { calls, src } = source(state);
    expect(await cache.page('k', src)).toBe('page at 7');
    expect(calls).toEqual({ changes: 0, reads: 1 });
    expect(await cache.page('k', src)).toBe('page at 7');
    expect(calls).toEqual({ changes: 1, reads: 1 });
    state.changes = 8;
    state.body = 'page at 8';
    expect(await cache.page('k', src)).toBe('page at 8');
    expect(calls).toEqual({ changes: 2, reads: 2 });
    expect(await cache.page('k', src)).toBe('page at 8');
    expect(calls).toEqual({ changes: 3, reads: 2 });
  });

  it('keeps pages apart by profile, status filter, page and limit', () => {
    const keys = [
      pageKey('p1', undefined, 1, 20),
      pageKey('p2', undefined, 1, 20),
      pageKey('p1', 'ACTIVE', 1, 20),
      pageKey('p1', undefined, 2, 20),
      pageKey('p1', undefined, 1, 100),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps nothing with a budget of 0, and not a page larger than the budget', async () => {
    for (const [budget, body] of [
      [0, 'small'],
      [10, 'more than ten characters'],
    ] as const) {
      const cache = createEventPageCache(budget);
      const { calls, src } = source({ changes: 1, body });
      await cache.page('k', src);
      await cache.page('k', src);
      expect(calls.reads).toBe(2);
    }
  });

  it('lets the least recently used pages go when the bodies pass the budget', async () => {
    const cache = createEventPageCache(30);
    const pages = ['a', 'b', 'c'].map((k) => ({ k, ...source({ changes: 1, body: `${k}`.repeat(12) }) }));
    const [a, b, c] = pages.map((p) => () => cache.page(p.k, p.src));
    for (const read of [a, b, c]) await read!();
    // 36 characters over a budget of 30: `a` went. `c` then `b` are answered from the cache, so
    // `c` is now the least recently used, and `a`, read again, pushes it out.
    for (const read of [c, b, a, b, c]) await read!();
    expect(pages.map((p) => p.calls.reads)).toEqual([2, 1, 2]);
  });
});

describe('GET /api/v1/events from the page cache: every committed change shows in the next page', () => {
  // The property below makes hundreds of calls with one key: past the default 120 a minute.
  const { ctx, org, other } = useTestApp({ env: { TICKETING_RATE_LIMIT_PER_MINUTE: '100000' } }, { org: organizer, other: organizer });
  const names = async (o: Organizer, query = '') =>
    ((await o.call('GET', `/events${query}`)).json().data.items as { name: string }[]).map((e) => e.name);
  const db = () => ctx.app.db;

  beforeAll(async () => {
    for (const [i, name] of ['one', 'two', 'three'].entries())
      await draftEvent(org, { name, eventStartsAt: `2027-0${i + 1}-01T10:00:00.000Z` });
  });

  it('answers a page it kept without reading its rows: an event changed with the counters’ trigger off is not seen', async () => {
    // Proof that pages are kept at all: the change count is what tells a kept page is stale, so
    // a change that does not add to it (the trigger disabled) leaves the kept page in use.
    expect(await names(org)).toEqual(['one', 'two', 'three']);
    await db().execute(sql`alter table ticketing_events disable trigger ticketing_events_count_update`);
    try {
      await db().execute(
        sql`update ticketing_events set name = 'renamed past the counters' where name = 'one' and profile_id = ${org.profileId}`,
      );
      expect(await names(org)).toEqual(['one', 'two', 'three']);
    } finally {
      await db().execute(sql`alter table ticketing_events enable trigger ticketing_events_count_update`);
      await db().execute(sql`update ticketing_events set name = 'one' where name = 'renamed past the counters'`);
    }
    expect(await names(org)).toEqual(['one', 'two', 'three']);
  });

  it('shows a creation, a change to a draft, a publication and a cancellation, on unfiltered and filtered pages', async () => {
    expect(await names(org, '?status=ACTIVE')).toEqual([]);
    const four = await draftEvent(org, { name: 'four', eventStartsAt: '2027-09-01T10:00:00.000Z' });
    expect(await names(org)).toEqual(['one', 'two', 'three', 'four']);
    expect((await org.call('PATCH', `/events/${four.id}`, { name: 'four, renamed' })).statusCode).toBe(200);
    expect(await names(org)).toEqual(['one', 'two', 'three', 'four, renamed']);
    await ctx.admin('POST', `/events/${four.id}/publish`);
    expect(await names(org, '?status=ACTIVE')).toEqual(['four, renamed']);
    expect(await names(org, '?status=DRAFT')).toEqual(['one', 'two', 'three']);
    await ctx.admin('POST', `/events/${four.id}/cancel`);
    expect(await names(org, '?status=ACTIVE')).toEqual([]);
    expect(await names(org, '?status=CANCELLED')).toEqual(['four, renamed']);
    expect((await org.call('GET', '/events?status=ACTIVE')).json().data.total).toBe(0);
  });

  it('shows changes made past the application: an update and a delete in SQL', async () => {
    const before = await names(org, '?status=DRAFT');
    await db().execute(sql`update ticketing_events set name = 'two, in SQL' where name = 'two' and profile_id = ${org.profileId}`);
    expect(await names(org, '?status=DRAFT')).toEqual(before.map((n) => (n === 'two' ? 'two, in SQL' : n)));
    const gone = await draftEvent(org, { name: 'short-lived', eventStartsAt: '2028-01-01T10:00:00.000Z' });
    expect(await names(org, '?status=DRAFT')).toContain('short-lived');
    await db().execute(sql`delete from ticketing_events where id = ${gone.id}`);
    const page = (await org.call('GET', '/events?status=DRAFT')).json().data;
    expect(page.items.map((e: { name: string }) => e.name)).not.toContain('short-lived');
    expect(page.total).toBe(page.items.length);
  });

  it('shows the first event on a page that was past the end, and another profile’s pages stay its own', async () => {
    const empty = (await other.call('GET', '/events?page=2&limit=1')).json().data;
    expect(empty).toEqual({ items: [], page: 2, limit: 1, total: 0 });
    await draftEvent(other, { name: 'a', eventStartsAt: '2027-01-01T10:00:00.000Z' });
    expect((await other.call('GET', '/events?page=2&limit=1')).json().data).toEqual({ items: [], page: 2, limit: 1, total: 1 });
    await draftEvent(other, { name: 'b', eventStartsAt: '2027-02-01T10:00:00.000Z' });
    const second = (await other.call('GET', '/events?page=2&limit=1')).json().data;
    expect(second.items.map((e: { name: string }) => e.name)).toEqual(['b']);
    expect(second.total).toBe(2);
    expect(await names(other)).toEqual(['a', 'b']);
    expect(await names(org)).not.toContain('a');
  });

  it('answers every page as an uncached read of the same moment would, whatever the changes in between (property)', async () => {
    const mine = await organizer(ctx);
    const ids: string[] = [];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const), month: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ kind: fc.constant('rename' as const), which: fc.nat(), name: fc.string({ maxLength: 8 }) }),
      fc.record({ kind: fc.constantFrom('publish' as const, 'cancel' as const, 'delete' as const), which: fc.nat() }),
      fc.record({
        kind: fc.constant('read' as const),
        page: fc.integer({ min: 1, max: 3 }),
        limit: fc.constantFrom(1, 2, 5),
        status: fc.constantFrom(undefined, 'DRAFT' as const, 'ACTIVE' as const),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const o of ops) {
          const id = o.kind !== 'create' && o.kind !== 'read' && ids.length > 0 ? ids[o.which % ids.length]! : undefined;
          if (o.kind === 'create') ids.push((await draftEvent(mine, { eventStartsAt: `2027-0${o.month}-01T10:00:00.000Z` })).id);
          else if (o.kind === 'rename' && id) await db().execute(sql`update ticketing_events set name = ${`n${o.name}`} where id = ${id}`);
          else if (o.kind === 'publish' && id) await ctx.admin('POST', `/events/${id}/status`, { status: 'ACTIVE' }, [200, 409]);
          else if (o.kind === 'cancel' && id) await ctx.admin('POST', `/events/${id}/cancel`, undefined, [200, 409]);
          else if (o.kind === 'delete' && id) {
            await db().execute(sql`delete from ticketing_events where id = ${id}`);
            ids.splice(ids.indexOf(id), 1);
          } else if (o.kind === 'read') {
            const query = `?page=${o.page}&limit=${o.limit}${o.status ? `&status=${o.status}` : ''}`;
            const served = (await mine.call('GET', `/events${query}`)).body;
            const fresh = await eventPageJson(db(), mine.profileId, o.status, {
              page: o.page,
              limit: o.limit,
              offset: (o.page - 1) * o.limit,
            });
            expect(served).toBe(fresh.body);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe.skipIf(!usingPostgres())('event pages across two instances (PostgreSQL)', () => {
  let first: TestContext;
  let second: TestContext;
  let org: Organizer;
  let there: Organizer;
  beforeAll(async () => {
    first = await buildTestApp();
    second = await buildTestApp({ shareWith: first, clock: first.clock });
    org = await organizer(first);
    // The same key, answered by the other instance.
    there = { ...org, call: (method, url, body, key) => partnerCall(second, key ?? org.key, method, url, body) };
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a page each instance keeps shows the change the other one made', async () => {
    const listed = async (o: Organizer) => ((await o.call('GET', '/events')).json().data.items as { name: string }[]).map((e) => e.name);
    await draftEvent(org, { name: 'first', eventStartsAt: '2027-01-01T10:00:00.000Z' });
    expect(await listed(org)).toEqual(['first']);
    expect(await listed(there)).toEqual(['first']);
    await draftEvent(there, { name: 'second', eventStartsAt: '2027-02-01T10:00:00.000Z' });
    expect(await listed(org)).toEqual(['first', 'second']);
    const [id] = ((await org.call('GET', '/events')).json().data.items as { id: string }[]).map((e) => e.id);
    expect((await there.call('PATCH', `/events/${id}`, { name: 'first, renamed there' })).statusCode).toBe(200);
    expect(await listed(org)).toEqual(['first, renamed there', 'second']);
    expect(await listed(there)).toEqual(['first, renamed there', 'second']);
  });
});
