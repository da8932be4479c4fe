import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { rowsOf, type Db } from '../db/client.js';
import { isJobName, JOB_KINDS, LANES, type LaneName } from '../jobs/kinds.js';
import type { Clock } from '../lib/clock.js';

export interface JobGaugeSources {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/** The lane whose slots run a queue (src/jobs/queue.ts): its kind's, housekeeping for others. */
const laneOf = (queue: string): LaneName => (isJobName(queue) ? JOB_KINDS[queue].lane : 'housekeeping');

/**
 * The job table's gauges, one query each when Prometheus scrapes: they count every process's
 * jobs, so any instance answers for all. A query that fails leaves its gauge without series for
 * that scrape (NaN for the one without labels; the readiness alert speaks for a database that is
 * down) instead of failing the scrape.
 */
export function jobGauges(registry: Registry, { db, clock, logger }: JobGaugeSources): void {
  async function read<T>(gauge: Gauge<string>, metric: string, query: ReturnType<typeof sql>): Promise<T[] | undefined> {
    gauge.reset();
    try {
      return rowsOf<T>(await db.execute(query));
    } catch (err) {
      logger.warn({ err, metric }, 'metrics: could not read a gauge');
      return undefined;
    }
  }

  new Gauge({
    name: 'jobs_queued',
    help: 'Pending jobs by lane, due or scheduled (retries waiting for their time included).',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      // Only the pending rows, through the claim's partial index (jobs_pending_idx).
      const rows = await read<{ queue: string; n: number }>(
        this,
        'jobs_queued',
        sql`select queue, count(*)::int as n from jobs where state = 'pending' group by queue`,
      );
      if (!rows) return;
      for (const lane of LANES) this.set({ lane }, 0);
      for (const { queue, n } of rows) this.inc({ lane: laneOf(queue) }, Number(n));
    },
  });

  new Gauge({
    name: 'jobs_oldest_due_age_seconds',
    help: 'Seconds the oldest due pending job of each lane has waited past its run time (0 when none is due).',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const now = clock.now();
      const rows = await read<{ queue: string; oldest: string | Date }>(
        this,
        'jobs_oldest_due_age_seconds',
        sql`select queue, min(run_at) as oldest from jobs where state = 'pending' and run_at <= ${now.toISOString()}::timestamptz group by queue`,
      );
      if (!rows) return;
      const ages = new Map<LaneName, number>(LANES.map((lane) => [lane, 0]));
      for (const { queue, oldest } of rows) {
        const age = Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000);
        const lane = laneOf(queue);
        ages.set(lane, Math.max(ages.get(lane)!, age));
      }
      for (const [lane, age] of ages) this.set({ lane }, age);
    },
  });

  new Gauge({
    name: 'jobs_running',
    help: 'Jobs claimed and running (under a lease) by lane, across all processes.',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const rows = await read<{ queue: string; n: number }>(
        this,
        'jobs_running',
        sql`select queue, count(*)::int as n from jobs where state = 'running' group by queue`,
      );
      if (!rows) return;
      for (const lane of LANES) this.set({ lane }, 0);
      for (const { queue, n } of rows) this.inc({ lane: laneOf(queue) }, Number(n));
    },
  });

  new Gauge({
    name: 'webhook_endpoints_paused',
    help: 'Webhook receivers (endpoints, or origins of direct URLs) paused after consecutive unanswered attempts.',
    registers: [registry],
    async collect() {
      // Deliveries are the only jobs with a concurrency key, so a paused key is a paused receiver.
      const rows = await read<{ n: number }>(
        this,
        'webhook_endpoints_paused',
        sql`select count(*)::int as n from job_key_pauses where paused_until > ${clock.now().toISOString()}::timestamptz`,
      );
      // A gauge without labels always has a sample: NaN says "unknown" where 0 would say "none paused".
      this.set(rows ? Number(rows[0]?.n ?? 0) : Number.NaN);
    },
  });
}
