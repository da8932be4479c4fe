import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createMetrics } from '../../src/metrics/registry.js';
import { sample, samples } from './exposition.js';

/** A database that does not answer: every statement and ping fails, as when PostgreSQL is down. */
const downDb = { execute: () => Promise.reject(new Error('connect ECONNREFUSED')) } as unknown as Db;

function recordingLogger() {
  const warnings: unknown[] = [];
  const logger = { warn: (obj: unknown) => void warnings.push(obj) } as unknown as FastifyBaseLogger;
  return { logger, warnings };
}

describe('the metrics registry while the database is down', () => {
  it('still answers a scrape: database_up 0, the table gauges absent or NaN (not stale), each failure logged', async () => {
    const { logger, warnings } = recordingLogger();
    const metrics = createMetrics({
      db: downDb,
      clock: new ManualClock(),
      logger,
      pools: { main: { totalCount: 10, idleCount: 0, waitingCount: 7 } },
      pingDatabase: () => Promise.reject(new Error('connect ECONNREFUSED')),
    });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'database_up')).toBe(0);
    for (const name of ['jobs_queued', 'jobs_running', 'jobs_oldest_due_age_seconds']) {
      expect(samples(text).filter((s) => s.name === name)).toEqual([]);
    }
    // Unknown, not "none paused".
    expect(sample(text, 'webhook_endpoints_paused')).toBeNaN();
    expect(warnings.map((w) => (w as { metric: string }).metric).sort()).toEqual([
      'jobs_oldest_due_age_seconds',
      'jobs_queued',
      'jobs_running',
      'webhook_endpoints_paused',
    ]);
    // The pool's own counts need no database: all ten connections busy, seven queries waiting.
    expect(sample(text, 'db_client_connection_count', { pool: 'main', state: 'used' })).toBe(10);
    expect(sample(text, 'db_client_connection_pending_requests', { pool: 'main' })).toBe(7);
  });

  it('answers database_up 0 within its 2 s bound when the ping hangs', async () => {
    const { logger } = recordingLogger();
    const metrics = createMetrics({
      db: downDb,
      clock: new ManualClock(),
      logger,
      pools: {},
      pingDatabase: () => new Promise(() => {}),
    });
    const started = performance.now();
    expect(sample(await metrics.registry.metrics(), 'database_up')).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 10_000);
});
