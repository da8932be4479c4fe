import { describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Closing the app (what SIGTERM does) lets running jobs finish, but never waits past the grace period. */
describe('running jobs at shutdown', () => {
  it('finishes a running job before the pools close and gives up on a stuck one after SHUTDOWN_GRACE_MS', async () => {
    const ctx = await buildTestApp({ startJobs: true, env: { JOBS_POLL_INTERVAL_MS: '20', SHUTDOWN_GRACE_MS: '1500' } });
    const started = new Set<string>();
    let finished = false;
    ctx.app.jobs.handle('ops.slow', async () => {
      started.add('slow');
      await sleep(400);
      // Still able to reach the database: the pools close only after the job.
      await ctx.app.database.ping();
      finished = true;
    });
    ctx.app.jobs.handle('ops.stuck', () => {
      started.add('stuck');
      return new Promise(() => {}); // never ends: its lease lets another process take it later
    });
    await ctx.app.jobs.enqueue('ops.slow', {});
    await ctx.app.jobs.enqueue('ops.stuck', {});
    await vi.waitFor(() => expect(started.size).toBe(2), { timeout: 5_000, interval: 10 });

    const before = performance.now();
    await ctx.close();
    const took = performance.now() - before;
    expect(finished).toBe(true);
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(6_000);
  });
});
