import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue } from '../../src/jobs/queue.js';
import { rowsOf } from '../../src/db/client.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';

describe('durable job queue', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx.close());

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
    dying.handle('test.lease', () => new Promise(() => {})); // never finishes: the process "died"
    await dying.enqueue('test.lease', { important: true });
    void dying.drain();
    await new Promise((r) => setTimeout(r, 100));
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
