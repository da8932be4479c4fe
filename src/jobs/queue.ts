import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { rowsOf, type Db, type DbOrTx } from '../db/client.js';
import { jobs } from '../db/schema/jobs.js';
import type { Clock } from '../lib/clock.js';

export interface Job<P = unknown> {
  id: string;
  queue: string;
  payload: P;
  /** 1 on the first run of this job, counting every claim (a crash mid-run counts too). */
  attempt: number;
}

/** What a handler decides about its job; returning nothing means done. */
export type JobOutcome = void | { retryAt: Date; error?: string } | { fail: string };

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<JobOutcome>;

export interface JobQueueOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  pollIntervalMs: number;
  /** How long a claimed job stays invisible to other workers; a crashed run is retried after it. */
  leaseMs?: number;
  batchSize?: number;
}

export interface JobQueue {
  /** Register the handler of a queue. One handler per queue. */
  handle<P>(queue: string, handler: JobHandler<P>): void;
  /** Adds a job; pass the transaction of the change it belongs to so both commit together. */
  enqueue(queue: string, payload: unknown, opts?: { runAt?: Date; tx?: DbOrTx }): Promise<string>;
  /** Claims and runs due jobs until none is due (tests drive time with a ManualClock and call this). */
  drain(): Promise<number>;
  /** Polls in the background every pollIntervalMs. */
  start(): void;
  /** Stops polling and waits up to graceMs for running jobs to finish. */
  stop(graceMs?: number): Promise<void>;
}

export function createJobQueue(opts: JobQueueOptions): JobQueue {
  const { db, clock, logger } = opts;
  const leaseMs = opts.leaseMs ?? 60_000;
  const batchSize = opts.batchSize ?? 10;
  const handlers = new Map<string, JobHandler<any>>();
  const running = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let ticking = false;

  async function claim(): Promise<(typeof jobs.$inferSelect)[]> {
    const queues = [...handlers.keys()];
    if (queues.length === 0) return [];
    const now = clock.now();
    const lockedUntil = new Date(now.getTime() + leaseMs);
    const result = await db.execute(sql`
      update jobs set state = 'running', attempts = attempts + 1,
        locked_until = ${lockedUntil.toISOString()}, updated_at = ${now.toISOString()}
      where id in (
        select id from jobs
        where queue in (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
          and ((state = 'pending' and run_at <= ${now.toISOString()})
            or (state = 'running' and locked_until < ${now.toISOString()}))
        order by run_at
        limit ${batchSize}
        for update skip locked)
      returning id, queue, payload, attempts`);
    return rowsOf(result).map((r) => ({
      id: r.id as string,
      queue: r.queue as string,
      payload: r.payload,
      attempts: Number(r.attempts),
    })) as (typeof jobs.$inferSelect)[];
  }

  async function finish(id: string, values: Partial<typeof jobs.$inferInsert>): Promise<void> {
    await db
      .update(jobs)
      .set({ ...values, lockedUntil: null, updatedAt: clock.now() })
      .where(and(eq(jobs.id, id), eq(jobs.state, 'running')));
  }

  async function run(row: { id: string; queue: string; payload: unknown; attempts: number }) {
    const handler = handlers.get(row.queue)!;
    try {
      const outcome = await handler({
        id: row.id,
        queue: row.queue,
        payload: row.payload,
        attempt: row.attempts,
      });
      if (outcome && 'retryAt' in outcome) {
        await finish(row.id, { state: 'pending', runAt: outcome.retryAt, lastError: outcome.error ?? null });
      } else if (outcome && 'fail' in outcome) {
        await finish(row.id, { state: 'failed', lastError: outcome.fail });
      } else {
        await finish(row.id, { state: 'done', lastError: null });
      }
    } catch (err) {
      // A handler that throws has a bug or lost its database; keep the job and try again later.
      logger.error({ err, jobId: row.id, queue: row.queue }, 'job handler threw');
      const retryAt = new Date(clock.now().getTime() + Math.min(60_000 * row.attempts, 600_000));
      await finish(row.id, { state: 'pending', runAt: retryAt, lastError: String(err) }).catch(
        (e: unknown) => logger.error({ err: e, jobId: row.id }, 'could not reschedule job'),
      );
    }
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) return total;
      total += rows.length;
      await Promise.all(rows.map((r) => track(run(r as never))));
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    return p.finally(() => running.delete(p));
  }

  async function tick() {
    if (ticking || stopped) return;
    ticking = true;
    try {
      await drain();
    } catch (err) {
      logger.warn({ err }, 'job poll failed');
    } finally {
      ticking = false;
    }
  }

  return {
    handle(queue, handler) {
      if (handlers.has(queue)) throw new Error(`queue ${queue} already has a handler`);
      handlers.set(queue, handler as JobHandler<any>);
    },
    async enqueue(queue, payload, o = {}) {
      const now = clock.now();
      const [row] = await (o.tx ?? db)
        .insert(jobs)
        .values({ queue, payload, state: 'pending', runAt: o.runAt ?? now, createdAt: now, updatedAt: now })
        .returning({ id: jobs.id });
      return row!.id;
    },
    drain,
    start() {
      stopped = false;
      if (timer) return;
      timer = setInterval(() => void tick(), opts.pollIntervalMs);
      timer.unref();
      void tick();
    },
    async stop(graceMs = 10_000) {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      if (running.size === 0) return;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((r) => setTimeout(r, graceMs).unref()),
      ]);
    },
  };
}
