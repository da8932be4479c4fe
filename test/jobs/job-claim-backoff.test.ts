import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimRetryMs, warningThrottle } from '../../src/jobs/backoff.js';
import { createJobQueue, LANES, type JobQueue, type LaneName } from '../../src/jobs/queue.js';
import type { Db } from '../../src/db/client.js';
import { recordingLogger } from '../helpers/logger.js';

describe('claim backoff, pure', () => {
  it('waits 250 ms after the first failed claim, twice as long after each next one, never more than 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(claimRetryMs)).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('lets one warning through per 30 s, the first at once, counting the ones it left out', () => {
    const throttle = warningThrottle();
    expect(throttle.note(0)).toEqual({ suppressed: 0 });
    expect(throttle.note(10_000)).toBeNull();
    expect(throttle.note(29_999)).toBeNull();
    expect(throttle.note(30_000)).toEqual({ suppressed: 2 });
    expect(throttle.note(30_001)).toBeNull();
    expect(throttle.note(90_000)).toEqual({ suppressed: 1 });
  });
});

/**
 * A database that went away: every statement fails as pg fails when its server does not answer.
 * Timers and the clock are vitest's fake ones, so half an hour of outage takes milliseconds.
 */
describe('job lanes while the database is unreachable', () => {
  let down = true;
  const calls: { at: number; lane: LaneName }[] = [];
  const dialect = new PgDialect();
  const unreachable = {
    async execute(query: SQL) {
      // Each lane claims its own queue (outage.<lane>): the bound parameters say whose claim it is.
      const { params } = dialect.sqlToQuery(query);
      const lane = LANES.find((l) => params.includes(`outage.${l}`));
      if (lane) calls.push({ at: Date.now(), lane });
      if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      return { rows: [] };
    },
  } as unknown as Db;
  let logs: ReturnType<typeof recordingLogger>;
  let counted: Record<string, number>;
  let queue: JobQueue;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: 0 });
    down = true;
    calls.length = 0;
    logs = recordingLogger();
    counted = {};
    queue = createJobQueue({
      db: unreachable,
      clock: { now: () => new Date() },
      logger: logs.logger,
      pollIntervalMs: 500,
      meter: { jobClaimFailed: (lane) => void (counted[lane] = (counted[lane] ?? 0) + 1) },
    });
    for (const lane of LANES) queue.handle(`outage.${lane}`, async () => {}, { lane });
    await queue.start();
  });
  afterEach(async () => {
    await queue.stop(0);
    vi.useRealTimers();
  });

  const claimsOf = (lane: LaneName) => calls.filter((c) => c.lane === lane).map((c) => c.at);
  const warnings = () => logs.lines.filter((l) => l.level === 'warn');

  it('claims again after 250 ms, 500 ms, 1 s … then every 5 s, whatever the poll (500 ms) asks', async () => {
    await vi.advanceTimersByTimeAsync(60_000);
    for (const lane of LANES) {
      const at = claimsOf(lane);
      expect(at.slice(0, 8)).toEqual([0, 250, 750, 1_750, 3_750, 7_750, 12_750, 17_750]);
      expect(at.slice(8).every((t, i) => t - at[i + 7]! === 5_000)).toBe(true);
      expect(at).toHaveLength(16); // 8 up to 17.75 s, then one each 5 s to 57.75 s
    }
  });

  it('warns at most once per lane per 30 s, with the count of failures left out, and counts each failure', async () => {
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    const total = calls.length;
    // Half an hour at 6 claims a second (3 lanes, 500 ms poll) would be 10,800.
    expect(total).toBeLessThan(3 * (30 * 12 + 10));
    for (const lane of LANES) {
      const failures = claimsOf(lane).length;
      expect(counted[lane]).toBe(failures);
      const said = warnings().filter((w) => w.lane === lane);
      expect(said[0]).toMatchObject({ msg: 'job claim failed; claiming again after a delay', failures: 1, suppressed: 0, retryInMs: 250 });
      expect(said[0]!.err).toBeInstanceOf(Error);
      const times = said.map((w) => w.time);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(30_000);
      expect(said.length).toBeLessThanOrEqual(61);
      expect(said.length).toBeGreaterThanOrEqual(55);
      // Every failure is either in a warning or counted in the next one's `suppressed`.
      const accounted = said.length + said.reduce((n, w) => n + (w.suppressed as number), 0);
      expect(failures - accounted).toBeLessThan(7); // the ones after the last warning, within 30 s
    }
    expect(warnings().every((w) => w.msg === 'job claim failed; claiming again after a delay')).toBe(true);
  });

  it('claims at the poll again once a claim works, says so once per lane, and starts the delays over at the next failure', async () => {
    await vi.advanceTimersByTimeAsync(40_000); // failing every 5 s by now
    down = false;
    const back = Date.now();
    await vi.advanceTimersByTimeAsync(5_000);
    const recovered = logs.lines.filter((l) => l.msg === 'job claims work again');
    expect(recovered.map((l) => l.lane).sort()).toEqual([...LANES].sort());
    for (const lane of LANES) {
      // The retry due 5 s after the failure at 37.75 s, then every 500 ms poll.
      expect(claimsOf(lane).filter((t) => t > back)).toEqual([42_750, 43_000, 43_500, 44_000, 44_500, 45_000]);
    }
    calls.length = 0;
    down = true;
    const failedAgain = Date.now();
    await vi.advanceTimersByTimeAsync(1_000);
    for (const lane of LANES) {
      const [first, second] = claimsOf(lane);
      expect(first).toBeLessThanOrEqual(failedAgain + 500);
      expect(second! - first!).toBe(250);
    }
    // Within 30 s of each lane's last warning (at 32.75 s): the new failures are left out, to be counted in the next.
    expect(warnings().filter((w) => w.time >= back)).toEqual([]);
    expect(counted).toEqual(Object.fromEntries(LANES.map((lane) => [lane, expect.any(Number)])));
  });
});
