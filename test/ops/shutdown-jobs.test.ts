import { describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { gate } from '../helpers/gate.js';

/** Closing the app (what SIGTERM does) lets running jobs finish, but never waits past the grace period. */
describe('running jobs at shutdown', () => {
  it('finishes a running job before the pools close and gives up on a stuck one after SHUTDOWN_GRACE_MS', async () => {
    const ctx = await buildTestApp({ startJobs: true, env: { JOBS_POLL_INTERVAL_MS: '20', SHUTDOWN_GRACE_MS: '1500' } });
    const slowStarted = gate();
    const stuckStarted = gate();
    const stopping = gate();
    let finished = false;
    ctx.app.jobs.handle('ops.slow', async () => {
      slowStarted.open();
      // Runs on after the shutdown began to stop the runner.
      await stopping.opened;
      // Still able to reach the database: the pools close only after the job.
      await ctx.app.database.ping();
      finished = true;
    });
    ctx.app.jobs.handle('ops.stuck', () => {
      stuckStarted.open();
      return new Promise(() => {}); // never ends: its lease lets another process take it later
    });
    await ctx.app.jobs.enqueue('ops.slow', {});
    await ctx.app.jobs.enqueue('ops.stuck', {});
    await Promise.all([slowStarted.opened, stuckStarted.opened]);

    const stop = ctx.app.jobs.stop;
    vi.spyOn(ctx.app.jobs, 'stop').mockImplementation((graceMs) => {
      const stopped = stop(graceMs);
      stopping.open();
      return stopped;
    });
    const before = performance.now();
    await ctx.close();
    const took = performance.now() - before;
    expect(ctx.app.jobs.stop).toHaveBeenCalledOnce();
    expect(finished).toBe(true);
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(6_000);
  });
});
