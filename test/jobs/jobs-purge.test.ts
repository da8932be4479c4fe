import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { JOB_PURGE_INTERVAL_MS, JOB_PURGE_QUEUE } from '../../src/jobs/purge.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';

const HOUR = 60 * 60 * 1000;
const RETENTION_HOURS = 48;

describe('the purge of finished jobs (JOBS_RETENTION_HOURS)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp({ env: { JOBS_RETENTION_HOURS: String(RETENTION_HOURS) } });
  });
  afterAll(() => ctx?.close());

  const purgeJobs = async () =>
    rowsOf<{ state: string; run_at: string }>(
      await ctx.app.db.execute(sql`select state, run_at from jobs where queue = ${JOB_PURGE_QUEUE}`),
    ).map((r) => ({ state: r.state, runAt: new Date(r.run_at).toISOString() }));

  /** Job rows of the queue `test.purge` as they would be left by jobs that ran, each ended (updated) `agoMs` before now. */
  const leaveJobs = async (rows: { name: string; state: string; agoMs: number }[]) => {
    for (const { name, state, agoMs } of rows) {
      const at = new Date(ctx.clock.now().getTime() - agoMs).toISOString();
      await ctx.app.db.execute(sql`insert into jobs (queue, payload, state, run_at, attempts, locked_until, created_at, updated_at)
        values ('test.purge', ${JSON.stringify({ name })}::jsonb, ${state}, ${at}, 1,
          ${state === 'running' ? new Date(ctx.clock.now().getTime() + HOUR).toISOString() : null}, ${at}, ${at})`);
    }
  };
  const leftNames = async () =>
    rowsOf<{ name: string }>(
      await ctx.app.db.execute(sql`select payload->>'name' as name from jobs where queue = 'test.purge' order by 1`),
    ).map((r) => r.name);

  it('is one job, due every hour, that deletes jobs ended longer ago than the retention and nothing else', async () => {
    expect(await purgeJobs()).toEqual([
      { state: 'pending', runAt: new Date(ctx.clock.now().getTime() + JOB_PURGE_INTERVAL_MS).toISOString() },
    ]);
    const retention = RETENTION_HOURS * HOUR;
    // Measured from the purge's run, an hour from now.
    await leaveJobs([
      { name: 'done-old', state: 'done', agoMs: retention },
      { name: 'failed-old', state: 'failed', agoMs: retention },
      { name: 'done-recent', state: 'done', agoMs: retention - 90 * 60 * 1000 },
      { name: 'failed-recent', state: 'failed', agoMs: 1000 },
      // Never: work not finished, however old its row.
      { name: 'pending-old', state: 'pending', agoMs: 10 * retention },
      { name: 'running-old', state: 'running', agoMs: 10 * retention },
    ]);
    ctx.clock.advance(JOB_PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await leftNames()).toEqual(['done-recent', 'failed-recent', 'pending-old', 'running-old']);
    expect(await purgeJobs()).toEqual([
      { state: 'pending', runAt: new Date(ctx.clock.now().getTime() + JOB_PURGE_INTERVAL_MS).toISOString() },
    ]);

    // done-recent ended half an hour short of the retention before this run: kept; an hour later it goes.
    await ctx.app.jobs.drain();
    expect(await leftNames()).toEqual(['done-recent', 'failed-recent', 'pending-old', 'running-old']);
    ctx.clock.advance(JOB_PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await leftNames()).toEqual(['failed-recent', 'pending-old', 'running-old']);
  });

  it('deletes a backlog larger than one batch in one run, and a job the runner ended itself', async () => {
    await ctx.app.db.execute(sql`delete from jobs where queue = 'test.purge'`);
    const at = new Date(ctx.clock.now().getTime() - RETENTION_HOURS * HOUR - JOB_PURGE_INTERVAL_MS).toISOString();
    await ctx.app.db.execute(sql`insert into jobs (queue, payload, state, run_at, attempts, created_at, updated_at)
      select 'test.purge', jsonb_build_object('name', 'backlog-' || i), 'done', ${at}, 1, ${at}, ${at} from generate_series(1, 2500) i`);
    ctx.app.jobs.handle('test.ran', async () => undefined);
    await ctx.app.jobs.enqueue('test.ran', {});
    await ctx.app.jobs.drain();
    const ran = async () =>
      rowsOf<{ state: string }>(await ctx.app.db.execute(sql`select state from jobs where queue = 'test.ran'`)).map((r) => r.state);
    expect(await ran()).toEqual(['done']);

    ctx.clock.advance(JOB_PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await leftNames()).toEqual([]);
    // Ended an hour ago: kept until the retention has passed.
    expect(await ran()).toEqual(['done']);
    ctx.clock.advance(RETENTION_HOURS * HOUR);
    await ctx.app.jobs.drain();
    expect(await ran()).toEqual([]);
  });
});
