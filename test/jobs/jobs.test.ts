import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createJobQueue, roundsOfEnds, type JobQueueOptions, type JobWrite, type WriteKind } from '../../src/jobs/queue.js';
import { jobListener } from '../../src/jobs/wake.js';
import { rowsOf, type Db } from '../../src/db/client.js';
import { gate } from '../helpers/gate.js';
import { useTestApp } from '../helpers/suite.js';

describe('durable job queue', () => {
  const { ctx } = useTestApp();

  const queueFor = (leaseMs = 1_000) =>
    createJobQueue({ db: ctx.app.db, clock: ctx.clock, logger: ctx.app.log as never, pollIntervalMs: 50, leaseMs });

  it('runs a due job once and not a future one until its time', async () => {
    const queue = queueFor();
    const seen: unknown[] = [];
    queue.handle('test.once', async (job) => {
      seen.push(job.payload);
    });
    await queue.enqueue('test.once', { n: 1 });
    await queue.enqueue('test.once', { n: 2 }, { runAt: new Date(ctx.clock.now().getTime() + 60_000) });
    expect(await queue.drain()).toBe(1);
    expect(await queue.drain()).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    ctx.clock.advance(60_000);
    expect(await queue.drain()).toBe(1);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reschedules on request and counts attempts', async () => {
    const queue = queueFor();
    const attempts: number[] = [];
    queue.handle('test.retry', async (job) => {
      attempts.push(job.attempt);
      if (job.attempt < 3) return { retryAt: new Date(ctx.clock.now().getTime() + 1_000), error: 'not yet' };
    });
    await queue.enqueue('test.retry', {});
    await queue.drain();
    ctx.clock.advance(1_000);
    await queue.drain();
    ctx.clock.advance(1_000);
    await queue.drain();
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('keeps a job whose handler throws and retries it later', async () => {
    const queue = queueFor();
    let calls = 0;
    queue.handle('test.throw', async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
    });
    const id = await queue.enqueue('test.throw', {});
    await queue.drain();
    const rows = await ctx.app.db.execute(sql`select state, last_error from jobs where id = ${id}`);
    expect(rowsOf(rows)[0]).toMatchObject({ state: 'pending', last_error: 'Error: boom' });
    ctx.clock.advance(60_000);
    await queue.drain();
    expect(calls).toBe(2);
  });

  it('takes a job again when the process that claimed it died (lease ran out)', async () => {
    const dying = queueFor(5_000);
    const claimed = gate();
    dying.handle('test.lease', () => {
      claimed.open();
      return new Promise(() => {}); // never finishes: the process "died"
    });
    await dying.enqueue('test.lease', { important: true });
    void dying.drain();
    await claimed.opened;
    await dying.stop(0); // dead: nothing renews its lease any more
    const survivor = queueFor(5_000);
    const done: unknown[] = [];
    survivor.handle('test.lease', async (job) => {
      done.push([job.payload, job.attempt]);
    });
    expect(await survivor.drain()).toBe(0);
    ctx.clock.advance(5_001);
    expect(await survivor.drain()).toBe(1);
    expect(done).toEqual([[{ important: true }, 2]]);
  });

  it('commits a job with its transaction and loses it with a rollback', async () => {
    const queue = queueFor();
    const seen: unknown[] = [];
    queue.handle('test.tx', async (job) => {
      seen.push(job.payload);
    });
    await ctx.app.db
      .transaction(async (tx) => {
        await queue.enqueue('test.tx', { rolledBack: true }, { tx });
        throw new Error('rollback');
      })
      .catch(() => {});
    await ctx.app.db.transaction(async (tx) => {
      await queue.enqueue('test.tx', { committed: true }, { tx });
    });
    await queue.drain();
    expect(seen).toEqual([{ committed: true }]);
  });
});

/**
 * The same database, with every statement run through `around` (its parameters, and the
 * statement to run when it wants). It reaches into drizzle's session: the seam every query
 * builder and `execute` go through.
 */
function watchStatements(db: Db, around: (params: unknown[], statement: () => Promise<unknown>) => Promise<unknown>): Db {
  const session = (db as any).session;
  const watched = Object.create(session);
  watched.prepareQuery = (query: { params: unknown[] }, ...rest: unknown[]) => {
    const prepared = session.prepareQuery(query, ...rest);
    const execute = prepared.execute.bind(prepared);
    prepared.execute = (...args: unknown[]) => around(query.params, () => execute(...args));
    return prepared;
  };
  // Drizzle reaches the session both ways (`db.session`, and `db._.session` for prepared raw statements).
  return Object.create(db, { session: { value: watched }, _: { value: { ...db._, session: watched } } });
}

describe('job runner: slots, lanes, per-key limits, pauses and wake-up', () => {
  const { ctx } = useTestApp();

  const runner = (o: Partial<JobQueueOptions> = {}) =>
    createJobQueue({ db: ctx.app.db, clock: ctx.clock, logger: ctx.app.log as never, pollIntervalMs: 60_000, leaseMs: 60_000, ...o });

  it('frees a slot as soon as its job ends: quick jobs pass a slow one instead of waiting for it', async () => {
    const queue = runner({ lanes: { housekeeping: { concurrency: 2 } } });
    const order: string[] = [];
    const slow = gate();
    queue.handle('slots.slow', async () => {
      await slow.opened;
      order.push('slow');
    });
    queue.handle('slots.quick', async (job) => {
      order.push(`quick${(job.payload as { n: number }).n}`);
      if (order.length === 5) slow.open();
    });
    // Each due a millisecond after the one before: jobs due at one instant run in no set order.
    await queue.enqueue('slots.slow', {}, { runAt: new Date(ctx.clock.now().getTime() - 6) });
    for (let n = 0; n < 5; n++) await queue.enqueue('slots.quick', { n }, { runAt: new Date(ctx.clock.now().getTime() - 5 + n) });
    expect(await queue.drain()).toBe(6);
    // With a batch of two, the second batch would have waited for the slow job.
    expect(order).toEqual(['quick0', 'quick1', 'quick2', 'quick3', 'quick4', 'slow']);
  });

  it('frees a slot when the handler returns, before its end is written, and claims nothing while a lane’s worth of ends waits', async () => {
    const endsWritten = gate();
    let endsAsked = 0;
    let claimsAsked = 0;
    // finishJobs binds the ends' states as one array; a claim binds the lane's queue names, one
    // parameter each (an enqueue binds its own queue's only).
    const db = watchStatements(ctx.app.db, async (params, statement) => {
      if (params.some((p) => Array.isArray(p) && p.includes('done'))) {
        endsAsked += 1;
        await endsWritten.opened;
      }
      if (params.includes('free.slow') && params.includes('free.quick')) claimsAsked += 1;
      return statement();
    });
    const queue = runner({ db, lanes: { housekeeping: { concurrency: 2 } } });
    const log: string[] = [];
    const slow = gate();
    const quickReturned = gate();
    queue.handle('free.slow', async () => {
      log.push('slow');
      await slow.opened;
    });
    queue.handle('free.quick', async (job) => {
      const n = (job.payload as { n: number }).n;
      log.push(`quick${n}`);
      if (n === 1) quickReturned.open();
    });
    await queue.enqueue('free.slow', {}, { runAt: new Date(ctx.clock.now().getTime() - 3) });
    for (let n = 0; n < 3; n++) await queue.enqueue('free.quick', { n }, { runAt: new Date(ctx.clock.now().getTime() - 2 + n) });
    const drained = queue.drain();
    // quick0's end is held (the slot used to wait for it); its slot runs quick1 all the same.
    await quickReturned.opened;
    const claimsAtQuick1 = claimsAsked;
    // Now two ends wait for a lane of two slots: quick2 is not even asked for. quick1's return
    // frees its slot and makes the lane look for work, all in promise callbacks that have run
    // before a setImmediate (the claim statement is asked for before any I/O: watchStatements).
    await new Promise((r) => setImmediate(r));
    expect(claimsAsked).toBe(claimsAtQuick1);
    expect(log).toEqual(['slow', 'quick0', 'quick1']);
    expect(endsAsked).toBe(1);
    log.push('ends written');
    endsWritten.open();
    slow.open();
    expect(await drained).toBe(4);
    expect(log).toEqual(['slow', 'quick0', 'quick1', 'ends written', 'quick2']);
    expect(rowsOf(await ctx.app.db.execute(sql`select count(*)::int as n from jobs where queue like 'free.%' and state = 'done'`))).toEqual(
      [{ n: 4 }],
    );
  });

  it('gives each lane its own slots: a full delivery lane does not hold back identity work', async () => {
    const queue = runner({ lanes: { deliveries: { concurrency: 1 }, identity: { concurrency: 1 } } });
    const stuck = gate();
    const delivering = gate();
    const decided = gate();
    const ran: string[] = [];
    queue.handle(
      'lanes.deliver',
      async () => {
        ran.push('deliver');
        delivering.open();
        await stuck.opened;
      },
      { lane: 'deliveries' },
    );
    queue.handle(
      'lanes.decide',
      async () => {
        ran.push('decide');
        decided.open();
      },
      { lane: 'identity' },
    );
    await queue.enqueue('lanes.deliver', {});
    await queue.enqueue('lanes.deliver', {});
    await queue.enqueue('lanes.decide', {});
    const drained = queue.drain();
    // The lanes claim side by side; the identity job runs while the only delivery slot is held.
    await Promise.all([delivering.opened, decided.opened]);
    expect([...ran].sort()).toEqual(['decide', 'deliver']);
    stuck.open();
    expect(await drained).toBe(3);
    expect([...ran].sort()).toEqual(['decide', 'deliver', 'deliver']);
  });

  it('runs at most perKeyLimit jobs of one key at once while other keys use the free slots', async () => {
    const queue = runner({ lanes: { deliveries: { concurrency: 10, perKeyLimit: 2 } } });
    const release = gate();
    const threeRunning = gate();
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    let done = 0;
    queue.handle(
      'cap.send',
      async (job) => {
        const key = (job.payload as { key: string }).key;
        running.set(key, (running.get(key) ?? 0) + 1);
        peak.set(key, Math.max(peak.get(key) ?? 0, running.get(key)!));
        if ([...running.values()].reduce((a, b) => a + b) === 3) threeRunning.open();
        await release.opened;
        running.set(key, running.get(key)! - 1);
        done += 1;
      },
      { lane: 'deliveries' },
    );
    for (let i = 0; i < 6; i++) await queue.enqueue('cap.send', { key: 'slow' }, { key: 'slow' });
    await queue.enqueue('cap.send', { key: 'other' }, { key: 'other' });
    const drained = queue.drain();
    // The first three to run: two of the key at its cap and the other key (a third of the slow
    // key, had the cap not held).
    await threeRunning.opened;
    expect(Object.fromEntries(running)).toEqual({ slow: 2, other: 1 });
    // The cap is read from the table, so it holds across processes: a second runner adds nothing.
    const second = runner({ lanes: { deliveries: { concurrency: 10, perKeyLimit: 2 } } });
    second.handle('cap.send', async () => void (done += 100), { lane: 'deliveries' });
    expect(await second.drain()).toBe(0);
    release.open();
    expect(await drained).toBe(7);
    expect(done).toBe(7);
    expect(Object.fromEntries(peak)).toEqual({ slow: 2, other: 1 });
  });

  it('pauses a key after unanswered jobs in a row, skips its due jobs without a slot, and resumes after the pause', async () => {
    const queue = runner({ lanes: { deliveries: { concurrency: 4, perKeyLimit: 4 } } });
    let answering = false;
    const calls: number[] = [];
    queue.handle(
      'pause.send',
      async (job) => {
        calls.push((job.payload as { n: number }).n);
        if (answering) return;
        return { done: true, keyFailed: true };
      },
      { lane: 'deliveries' },
    );
    for (let n = 0; n < 3; n++) await queue.enqueue('pause.send', { n }, { key: 'dead' });
    expect(await queue.drain()).toBe(3);
    const pause = rowsOf<{ failures: number; paused_until: Date | string }>(
      await ctx.app.db.execute(sql`select failures, paused_until from job_key_pauses where key = 'dead'`),
    )[0]!;
    expect(pause.failures).toBe(3);
    expect(new Date(pause.paused_until).getTime()).toBe(ctx.clock.now().getTime() + 1_000);
    await queue.enqueue('pause.send', { n: 3 }, { key: 'dead' });
    await queue.enqueue('pause.send', { n: 4 }, { key: 'alive' });
    expect(await queue.drain()).toBe(1); // only the other key's job
    expect([...calls].sort()).toEqual([0, 1, 2, 4]);
    ctx.clock.advance(1_000);
    answering = true;
    expect(await queue.drain()).toBe(1);
    expect(calls.at(-1)).toBe(3);
    // An answer clears the key's record.
    expect(rowsOf(await ctx.app.db.execute(sql`select key from job_key_pauses where key = 'dead'`))).toEqual([]);
  });

  const jobRows = async (queue: string) =>
    rowsOf<{ state: string; attempts: number; locked_until: string | Date | null; payload: { n: number } }>(
      await ctx.app.db.execute(sql`select state, attempts, locked_until, payload from jobs where queue = ${queue} order by payload->>'n'`),
    );

  it('claims ahead of its free slots with a prefetch, starts them as slots free, and hands them back unrun when stopped', async () => {
    const queue = runner({ lanes: { deliveries: { concurrency: 1, prefetch: 2 } } });
    const first = gate();
    const running = gate();
    const ran: number[] = [];
    queue.handle(
      'ahead.send',
      async (job) => {
        ran.push((job.payload as { n: number }).n);
        running.open();
        await first.opened;
      },
      { lane: 'deliveries' },
    );
    // Due in this order (claims take the oldest first).
    for (let n = 0; n < 4; n++) await queue.enqueue('ahead.send', { n }, { runAt: new Date(ctx.clock.now().getTime() - 10 + n) });
    await queue.start();
    await running.opened;
    // One running in the only slot, two claimed ahead (leased, counted), one left.
    expect((await jobRows('ahead.send')).map((j) => [j.payload.n, j.state, j.attempts])).toEqual([
      [0, 'running', 1],
      [1, 'running', 1],
      [2, 'running', 1],
      [3, 'pending', 0],
    ]);
    const stopped = queue.stop(5_000);
    first.open();
    await stopped;
    expect(ran).toEqual([0]);
    // The ones claimed ahead are pending again with their claim uncounted, for any process to take.
    expect((await jobRows('ahead.send')).map((j) => [j.payload.n, j.state, j.attempts])).toEqual([
      [0, 'done', 1],
      [1, 'pending', 0],
      [2, 'pending', 0],
      [3, 'pending', 0],
    ]);
  });

  it('hands back a job claimed ahead that waited past half its lease, and runs it under a fresh lease', async () => {
    const queue = runner({ leaseMs: 60_000, lanes: { deliveries: { concurrency: 1, prefetch: 1 } } });
    const first = gate();
    const running = gate();
    const seen: { n: number; attempts: number; lockedUntil: number }[] = [];
    queue.handle(
      'stale.send',
      async (job) => {
        const { n } = job.payload as { n: number };
        const row = (await jobRows('stale.send')).find((j) => j.payload.n === n)!;
        seen.push({ n, attempts: job.attempt, lockedUntil: new Date(row.locked_until!).getTime() });
        running.open();
        await first.opened;
      },
      { lane: 'deliveries' },
    );
    await queue.enqueue('stale.send', { n: 0 }, { runAt: new Date(ctx.clock.now().getTime() - 2) });
    await queue.enqueue('stale.send', { n: 1 }, { runAt: new Date(ctx.clock.now().getTime() - 1) });
    const drained = queue.drain();
    await running.opened;
    // The second job waits claimed ahead while the first holds the slot for 31 s of its 60 s lease.
    ctx.clock.advance(31_000);
    first.open();
    expect(await drained).toBe(2);
    const now = ctx.clock.now().getTime();
    expect(seen).toEqual([
      { n: 0, attempts: 1, lockedUntil: now - 31_000 + 60_000 },
      // Handed back (its first claim uncounted) and claimed again: a whole lease ahead of it.
      { n: 1, attempts: 1, lockedUntil: now + 60_000 },
    ]);
  });

  describe('rounds of ends (each round one statement, in order)', () => {
    const count: WriteKind = {
      name: 'count',
      columns: 'id int',
      statement: (r) => sql`select ${r}`,
      target: { table: 't', columns: ['id'] },
    };
    const reset: WriteKind = { ...count, name: 'reset', repeatable: true };
    const end = (key: string | null, o: { keyFailed?: boolean; writes?: JobWrite[] } = {}) => ({
      job: { key },
      end: { keyFailed: o.keyFailed ?? false, writes: o.writes ?? [] },
    });

    it('puts answered ends of one key together, and each unanswered one after what came before it', () => {
      expect(roundsOfEnds([end('a'), end('b'), end('a'), end(null), end('a'), end(null)])).toEqual([[0, 1, 2, 3, 4, 5]]);
      // a: answered, unanswered, answered, answered: the count must see the reset before it and
      // the reset after it must see the count.
      expect(roundsOfEnds([end('a'), end('a', { keyFailed: true }), end('a'), end('b', { keyFailed: true }), end('a')])).toEqual([
        [0, 3],
        [1],
        [2, 4],
      ]);
      expect(roundsOfEnds([end('a', { keyFailed: true }), end('a', { keyFailed: true })])).toEqual([[0], [1]]);
      expect(roundsOfEnds([])).toEqual([]);
    });

    it('separates writes that change one row unless both are repeatable, across keys too', () => {
      const c = (id: number) => ({ kind: count, row: { id } });
      const r = (id: number) => ({ kind: reset, row: { id } });
      expect(roundsOfEnds([end('a', { writes: [c(1)] }), end('b', { writes: [c(1)] }), end('c', { writes: [c(2)] })])).toEqual([
        [0, 2],
        [1],
      ]);
      expect(roundsOfEnds([end('a', { writes: [r(1)] }), end('b', { writes: [r(1)] }), end('c', { writes: [c(1)] })])).toEqual([
        [0, 1],
        [2],
      ]);
      // An end held back by one of its rows holds back what comes after it on any of its rows.
      expect(
        roundsOfEnds([
          end('a', { writes: [c(1)] }),
          end('b', { writes: [c(1), r(2)] }),
          end('c', { writes: [r(2)] }),
          end('d', { writes: [c(3)] }),
        ]),
      ).toEqual([
        [0, 3],
        [1, 2],
      ]);
      // Two kinds that change one row of one table are one target: a count after a reset waits.
      expect(roundsOfEnds([end(null, { writes: [r(1)] }), end(null, { writes: [c(1)] })])).toEqual([[0], [1]]);
    });
  });

  it('applies every count of one row that arrives with ends of one key together', async () => {
    await ctx.app.db.execute(sql`create table if not exists job_count_probe (id int primary key, n int not null)`);
    await ctx.app.db.execute(sql`insert into job_count_probe (id, n) values (1, 0) on conflict (id) do update set n = 0`);
    const counted: WriteKind = {
      name: 'counted',
      columns: 'id int',
      statement: (rows) => sql`update job_count_probe p set n = p.n + 1 from ${rows} where p.id = r.id`,
      target: { table: 'job_count_probe', columns: ['id'] },
    };
    const n = 4;
    const together = gate();
    let started = 0;
    const queue = runner({ lanes: { housekeeping: { concurrency: n } } });
    queue.handle('ends.counted', async () => {
      if (++started === n) together.open();
      await together.opened;
      return { done: true, writes: [{ kind: counted, row: { id: 1 } }] };
    });
    for (let i = 0; i < n; i++) await queue.enqueue('ends.counted', { i }, { key: 'busy' });
    expect(await queue.drain()).toBe(n);
    expect(rowsOf(await ctx.app.db.execute(sql`select n from job_count_probe where id = 1`))).toEqual([{ n }]);
    expect(rowsOf(await ctx.app.db.execute(sql`select state from jobs where queue = 'ends.counted' and state <> 'done'`))).toEqual([]);
  });

  it('writes ends that arrive together, with their handlers’ writes, exactly as given', async () => {
    await ctx.app.db.execute(sql`create table if not exists job_write_probe (id int primary key, note text, at timestamptz)`);
    const probe: WriteKind = {
      name: 'probe',
      columns: 'id int, note text, at timestamptz',
      statement: (rows) => sql`insert into job_write_probe (id, note, at) select r.id, r.note, r.at from ${rows}`,
      target: { table: 'job_write_probe', columns: ['id'] },
    };
    // Text that array literals must escape: quotes, commas, braces, backslashes, the word NULL.
    const notes = ['he said "no", then {left}', String.raw`C:\path\{x}`, 'NULL', "it's ü ✓"];
    // Every handler waits until all have started, so their ends arrive together.
    const together = gate();
    let started = 0;
    const queue = runner({ lanes: { housekeeping: { concurrency: notes.length } } });
    queue.handle('ends.together', async (job) => {
      if (++started === notes.length) together.open();
      await together.opened;
      const n = (job.payload as { n: number }).n;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
      const writes = [{ kind: probe, row: { id: n, note: notes[n]!, at } }];
      return n % 2 === 0
        ? { fail: notes[n]!, writes }
        : { retryAt: new Date(ctx.clock.now().getTime() + 60_000), error: notes[n]!, writes };
    });
    for (const n of notes.keys()) await queue.enqueue('ends.together', { n }, { key: `probe-${n}` });
    expect(await queue.drain()).toBe(notes.length);
    const rows = rowsOf<{ n: number; state: string; last_error: string; note: string; at: string }>(
      await ctx.app.db.execute(sql`select (j.payload->>'n')::int as n, j.state, j.last_error, p.note,
        to_char(p.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as at
        from jobs j join job_write_probe p on p.id = (j.payload->>'n')::int where j.queue = 'ends.together' order by n`),
    );
    expect(rows).toEqual(
      notes.map((note, n) => ({ n, state: n % 2 === 0 ? 'failed' : 'pending', last_error: note, note, at: `2026-01-01T00:00:0${n}` })),
    );
  });

  it('drains work a job committed for another lane after that lane had claimed, while its own lane was still claiming', async () => {
    // The order that once let a drain end early (a webhook fan-out and its deliveries): the
    // delivery lane claims and finds nothing; then the fan-out commits its delivery and ends
    // while its own lane is still in a claim (held here until the fan-out has ended). The round
    // of claims saw no delivery, yet one is due and must be run by this same drain.
    const deliveryLaneClaimed = gate();
    const fanOutEnded = gate();
    let fanOutReturned = false;
    let fanOutClaims = 0;
    const db = watchStatements(ctx.app.db, async (params, statement) => {
      // Claims name their lane's queues as parameters; finishing a job does not (and jobs are
      // added through the unwatched database).
      const claims = (queue: string) => params.includes(queue);
      if (claims('flow.fanout') && ++fanOutClaims === 2) await fanOutEnded.opened;
      const result = await statement();
      if (claims('flow.deliver')) deliveryLaneClaimed.open();
      // The first statement after the handler returned records its outcome; the job has ended
      // once the promise callbacks after it have run.
      else if (fanOutReturned && !claims('flow.fanout')) setImmediate(fanOutEnded.open);
      return result;
    });
    const queue = runner({ db });
    const writer = runner();
    const delivered: unknown[] = [];
    queue.handle('flow.fanout', async () => {
      await deliveryLaneClaimed.opened;
      await writer.enqueue('flow.deliver', { n: 1 });
      fanOutReturned = true;
    });
    queue.handle('flow.deliver', async (job) => void delivered.push(job.payload), { lane: 'deliveries' });
    await writer.enqueue('flow.fanout', {});
    expect(await queue.drain()).toBe(2);
    expect(delivered).toEqual([{ n: 1 }]);
    expect(fanOutClaims).toBeGreaterThanOrEqual(2);
  });

  it('wakes on a committed job without waiting for the poll, and not for a rolled-back one', async () => {
    const queue = runner({ pollIntervalMs: 60_000, listen: jobListener(ctx.app.database, ctx.app.log as never) });
    const seen: unknown[] = [];
    const woken = gate();
    queue.handle('wake.now', async (job) => {
      seen.push(job.payload);
      woken.open();
    });
    try {
      // Listening, and its first claims found nothing; from here only a notification can.
      await queue.start();
      await ctx.app.db
        .transaction(async (tx) => {
          await queue.enqueue('wake.now', { rolledBack: true }, { tx });
          throw new Error('rollback');
        })
        .catch(() => {});
      const started = performance.now();
      await ctx.app.db.transaction(async (tx) => {
        await queue.enqueue('wake.now', { committed: true }, { tx });
      });
      await woken.opened;
      expect(seen).toEqual([{ committed: true }]);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await queue.stop();
    }
  });
});
