import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createJobQueue, DEFAULT_LEASE_MS, type JobOutcome, type JobQueue, type JobQueueOptions } from '../../src/jobs/queue.js';
import { rowsOf, type Db } from '../../src/db/client.js';
import { systemClock } from '../../src/lib/clock.js';
import { gate } from '../helpers/gate.js';
import { useTestApp } from '../helpers/suite.js';
import { recordingLogger } from '../helpers/logger.js';

interface JobRow {
  state: string;
  attempts: number;
  locked_until: string | null;
}

async function jobRow(db: Db, id: string): Promise<JobRow> {
  const rows = rowsOf<JobRow>(
    await db.execute(
      sql`select state, attempts, to_char(locked_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as locked_until from jobs where id = ${id}`,
    ),
  );
  return rows[0]!;
}

/** A handler that holds its job until the test lets it go, and says when it has started. */
function heldHandler() {
  const started = gate();
  const release = gate();
  let runs = 0;
  return {
    started: started.opened,
    release: release.open,
    get runs() {
      return runs;
    },
    handler: async () => {
      runs += 1;
      started.open();
      await release.opened;
    },
  };
}

describe('job leases: short, renewed while the job runs', () => {
  const { ctx } = useTestApp();
  const runner = (o: Partial<JobQueueOptions> = {}) =>
    createJobQueue({ db: ctx.app.db, clock: ctx.clock, logger: ctx.app.log as never, pollIntervalMs: 60_000, ...o });
  const now = () => ctx.clock.now().getTime();
  const at = (ms: number) => new Date(ms).toISOString();

  it('claims for 15 s by default and renews every running job of a lane in one statement per round', async () => {
    expect(DEFAULT_LEASE_MS).toBe(15_000);
    let statements = 0;
    // Every statement of the repository goes through execute (drizzle's `db.execute`).
    const db = Object.create(ctx.app.db, {
      execute: { value: (query: unknown) => ((statements += 1), ctx.app.db.execute(query as never)) },
    }) as Db;
    const queue = runner({ db, lanes: { identity: { concurrency: 3 } } });
    const identity = [heldHandler(), heldHandler(), heldHandler()];
    const housekeeping = heldHandler();
    queue.handle('renew.identity', (job) => identity[(job.payload as { n: number }).n]!.handler(), { lane: 'identity' });
    queue.handle('renew.housekeeping', housekeeping.handler);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push(await queue.enqueue('renew.identity', { n }));
    ids.push(await queue.enqueue('renew.housekeeping', {}));
    const claimedAt = now();
    const drained = queue.drain();
    await Promise.all([...identity, housekeeping].map((h) => h.started));
    for (const id of ids) expect((await jobRow(ctx.app.db, id)).locked_until).toBe(at(claimedAt + 15_000));

    ctx.clock.advance(5_000);
    statements = 0;
    await queue.renew();
    expect(statements).toBe(2); // one per lane that holds jobs, not one per job
    for (const id of ids) expect(await jobRow(ctx.app.db, id)).toEqual({ state: 'running', attempts: 1, locked_until: at(now() + 15_000) });

    for (const h of [...identity, housekeeping]) h.release();
    expect(await drained).toBe(4);
    statements = 0;
    await queue.renew();
    expect(statements).toBe(0); // nothing held, nothing to renew
    for (const id of ids) expect(await jobRow(ctx.app.db, id)).toMatchObject({ state: 'done', locked_until: null });
  });

  it('renews on its own every third of a lease while a job runs', async () => {
    const queue = runner({ leaseMs: 300 });
    const long = heldHandler();
    queue.handle('renew.timer', long.handler);
    const id = await queue.enqueue('renew.timer', {});
    const drained = queue.drain();
    await long.started;
    expect((await jobRow(ctx.app.db, id)).locked_until).toBe(at(now() + 300));
    ctx.clock.advance(200);
    // No renew() here: the runner's own timer, 100 ms of real time later.
    await vi.waitFor(async () => expect((await jobRow(ctx.app.db, id)).locked_until).toBe(at(now() + 300)), {
      timeout: 2_000,
      interval: 20,
    });
    long.release();
    expect(await drained).toBe(1);
  });

  it('does not renew jobs claimed ahead: they still go back after half a lease unrun', async () => {
    const queue = runner({ lanes: { deliveries: { concurrency: 1, prefetch: 1 } } });
    const first = heldHandler();
    const order: number[] = [];
    queue.handle(
      'renew.ahead',
      async (job) => {
        const n = (job.payload as { n: number }).n;
        order.push(n);
        if (n === 0) await first.handler();
      },
      { lane: 'deliveries' },
    );
    const running = await queue.enqueue('renew.ahead', { n: 0 }, { runAt: new Date(now() - 2) });
    const ahead = await queue.enqueue('renew.ahead', { n: 1 }, { runAt: new Date(now() - 1) });
    const claimedAt = now();
    const drained = queue.drain();
    await first.started;
    ctx.clock.advance(5_000);
    await queue.renew();
    expect((await jobRow(ctx.app.db, running)).locked_until).toBe(at(now() + 15_000));
    expect(await jobRow(ctx.app.db, ahead)).toEqual({ state: 'running', attempts: 1, locked_until: at(claimedAt + 15_000) });
    ctx.clock.advance(3_000); // 8 s of its 15 s gone: past half
    first.release();
    expect(await drained).toBe(2);
    expect(order).toEqual([0, 1]);
    expect(await jobRow(ctx.app.db, ahead)).toMatchObject({ state: 'done', attempts: 1 });
  });

  describe('a lease lost to another process', () => {
    /** Process A holds a job past its lease without renewing (stalled); process B takes it. */
    async function takenOver(outcome: () => Promise<JobOutcome>) {
      const logs = recordingLogger();
      const a = runner({ logger: logs.logger });
      const b = runner();
      const stalled = gate();
      const aStarted = gate();
      const bRun = heldHandler();
      const queue = `lost.${Math.random().toString(36).slice(2, 8)}`;
      a.handle(queue, async () => {
        aStarted.open();
        await stalled.opened;
        return outcome();
      });
      b.handle(queue, bRun.handler);
      const id = await a.enqueue(queue, {});
      const aDrained = a.drain();
      await aStarted.opened;
      ctx.clock.advance(15_001);
      const bDrained = b.drain();
      await bRun.started;
      const bClaim = await jobRow(ctx.app.db, id);
      expect(bClaim).toEqual({ state: 'running', attempts: 2, locked_until: at(now() + 15_000) });
      return { a, b, id, logs, aDrained, bDrained, bRun, bClaim, letAGo: stalled.open };
    }

    const lostLines = (logs: ReturnType<typeof recordingLogger>) => logs.lines.filter((l) => l.msg.startsWith('job lease lost'));

    it('is noticed at the next renewal, said once, and never renewed or ended over the new claim', async () => {
      const { a, id, logs, aDrained, bDrained, bRun, bClaim, letAGo } = await takenOver(async () => ({ fail: 'late' }));
      ctx.clock.advance(1_000);
      await a.renew();
      expect(await jobRow(ctx.app.db, id)).toEqual(bClaim); // B's lease, not renewed by A
      expect(lostLines(logs)).toEqual([
        expect.objectContaining({ level: 'warn', lane: 'housekeeping', jobs: [expect.objectContaining({ jobId: id })] }),
      ]);
      ctx.clock.advance(5_000);
      await a.renew();
      letAGo();
      expect(await aDrained).toBe(1);
      expect(await jobRow(ctx.app.db, id)).toEqual(bClaim); // A's "failed" is not written over B's run
      expect(lostLines(logs)).toHaveLength(1);
      bRun.release();
      expect(await bDrained).toBe(1);
      expect(await jobRow(ctx.app.db, id)).toMatchObject({ state: 'done', attempts: 2 });
    });

    it('is noticed at the end when no renewal came between: the end is not written, and it is said once', async () => {
      const { id, logs, aDrained, bDrained, bRun, bClaim, letAGo } = await takenOver(async () => ({ done: true }));
      letAGo();
      expect(await aDrained).toBe(1);
      expect(await jobRow(ctx.app.db, id)).toEqual(bClaim);
      expect(lostLines(logs)).toEqual([
        expect.objectContaining({ level: 'warn', lane: 'housekeeping', jobs: [expect.objectContaining({ jobId: id })] }),
      ]);
      bRun.release();
      await bDrained;
    });

    it('keeps a handler that throws after losing its lease from rescheduling the job another process runs', async () => {
      const { id, logs, aDrained, bDrained, bRun, bClaim, letAGo } = await takenOver(async () => {
        throw new Error('late failure');
      });
      letAGo();
      await aDrained;
      expect(await jobRow(ctx.app.db, id)).toEqual(bClaim);
      expect(lostLines(logs)).toHaveLength(1);
      bRun.release();
      await bDrained;
      expect(await jobRow(ctx.app.db, id)).toMatchObject({ state: 'done', attempts: 2 });
    });
  });

  it('stops renewing what still runs when stop() gives up waiting: another process takes it one lease after the last renewal', async () => {
    const a = runner();
    const b = runner();
    const hung = heldHandler();
    const taken = heldHandler();
    a.handle('lease.abandoned', hung.handler);
    b.handle('lease.abandoned', taken.handler);
    const id = await a.enqueue('lease.abandoned', {});
    const aDrained = a.drain();
    await hung.started;
    ctx.clock.advance(5_000);
    await a.renew();
    const lastRenewal = now();
    await a.stop(0);
    ctx.clock.advance(5_000);
    await a.renew(); // stopped: renews nothing any more
    expect((await jobRow(ctx.app.db, id)).locked_until).toBe(at(lastRenewal + 15_000));
    ctx.clock.set(new Date(lastRenewal + 15_000));
    expect(await b.drain()).toBe(0);
    ctx.clock.advance(1);
    const bDrained = b.drain();
    await taken.started;
    expect(await jobRow(ctx.app.db, id)).toMatchObject({ state: 'running', attempts: 2 });
    taken.release();
    expect(await bDrained).toBe(1);
    hung.release();
    await aDrained;
    expect(await jobRow(ctx.app.db, id)).toMatchObject({ state: 'done', attempts: 2 }); // B's end stands
  });

  it('refuses a lease that is not a positive number of milliseconds', () => {
    expect(() => runner({ leaseMs: 0 })).toThrow('leaseMs must be positive, not 0');
    expect(() => runner({ leaseMs: Number.NaN })).toThrow('leaseMs must be positive');
  });
});

/**
 * Two instances on one PostgreSQL, each with its own pools, as two servers behind a load
 * balancer: the claim that keeps B away is only the row's lease, renewed by A.
 */
describe.runIf(process.env.DATABASE_URL)('job leases across two instances (PostgreSQL)', () => {
  const { ctx: a } = useTestApp();
  const { ctx: b } = useTestApp(() => ({ shareWith: a, clock: a.clock }));

  it('never starts on B a job that runs three lease lengths on A', async () => {
    const onA = heldHandler();
    const onB = heldHandler();
    a.app.jobs.handle('lease.three', onA.handler);
    b.app.jobs.handle('lease.three', onB.handler);
    const id = await a.app.jobs.enqueue('lease.three', {});
    const drained = a.app.jobs.drain();
    await onA.started;
    // Three leases of 15 s, a renewal every 5 s, B looking for work after each.
    for (let round = 1; round <= 9; round++) {
      a.clock.advance(5_000);
      await a.app.jobs.renew();
      expect(await b.app.jobs.drain()).toBe(0);
    }
    onA.release();
    expect(await drained).toBe(1);
    expect(await b.app.jobs.drain()).toBe(0);
    expect(onB.runs).toBe(0);
    expect(await jobRow(a.app.db, id)).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('in real time, with leases of 300 ms: a job of a second runs once, on A', async () => {
    const opts = { clock: systemClock, logger: a.app.log as never, pollIntervalMs: 20, leaseMs: 300 };
    const queues: JobQueue[] = [
      createJobQueue({ ...opts, db: a.app.db, bookkeeping: a.app.database.bookkeeping }),
      createJobQueue({ ...opts, db: b.app.db, bookkeeping: b.app.database.bookkeeping }),
    ];
    const [queueA, queueB] = queues as [JobQueue, JobQueue];
    const onA = gate();
    let runsOnB = 0;
    queueA.handle('lease.realtime', async () => {
      onA.open();
      await new Promise((r) => setTimeout(r, 1_000));
    });
    queueB.handle('lease.realtime', async () => {
      runsOnB += 1;
    });
    try {
      const id = await queueA.enqueue('lease.realtime', {});
      await queueA.start();
      await onA.opened;
      await queueB.start();
      await vi.waitFor(async () => expect((await jobRow(a.app.db, id)).state).toBe('done'), { timeout: 5_000, interval: 20 });
      expect(await jobRow(a.app.db, id)).toMatchObject({ attempts: 1 });
      expect(runsOnB).toBe(0);
    } finally {
      await Promise.all(queues.map((q) => q.stop(2_000)));
    }
  });

  it('gives B the job of an A that died within one lease of its last renewal', async () => {
    const onA = heldHandler();
    const onB = heldHandler();
    a.app.jobs.handle('lease.died', onA.handler);
    b.app.jobs.handle('lease.died', onB.handler);
    const id = await a.app.jobs.enqueue('lease.died', {});
    const aDrained = a.app.jobs.drain();
    await onA.started;
    a.clock.advance(5_000);
    await a.app.jobs.renew();
    const lastRenewal = a.clock.now().getTime();
    await a.app.jobs.stop(0); // A is gone: nothing renews its claim any more
    a.clock.advance(14_999);
    expect(await b.app.jobs.drain()).toBe(0);
    a.clock.advance(2);
    const drained = b.app.jobs.drain();
    await onB.started;
    expect(a.clock.now().getTime() - lastRenewal).toBeLessThan(20_000);
    expect(await jobRow(a.app.db, id)).toMatchObject({ state: 'running', attempts: 2 });
    onB.release();
    expect(await drained).toBe(1);
    onA.release();
    await aDrained;
    expect(await jobRow(a.app.db, id)).toMatchObject({ state: 'done', attempts: 2 });
  });
});
