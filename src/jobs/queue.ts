import { sql, type SQL } from 'drizzle-orm';
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

/**
 * What a handler decides about its job; returning nothing means done. `keyFailed` says the
 * thing behind the job's concurrency key did not answer (see job_key_pauses): enough of those
 * in a row pause the key.
 */
export type JobOutcome =
  | void
  | { done: true; keyFailed?: boolean }
  | { retryAt: Date; error?: string; keyFailed?: boolean }
  | { fail: string; keyFailed?: boolean };

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<JobOutcome>;

/**
 * Kinds of work that never wait for each other: each lane has its own slots, so webhook
 * deliveries to slow receivers cannot delay an identity decision (README, Operations).
 */
export const LANES = ['identity', 'deliveries', 'housekeeping'] as const;
export type LaneName = (typeof LANES)[number];

export interface LaneSettings {
  /** Jobs of this lane running at once in this process. */
  concurrency: number;
  /** Jobs with one concurrency key running at once (all processes together); no limit when absent. */
  perKeyLimit?: number;
}

export const DEFAULT_LANES: Record<LaneName, LaneSettings> = {
  identity: { concurrency: 4 },
  deliveries: { concurrency: 32, perKeyLimit: 4 },
  housekeeping: { concurrency: 4 },
};

/** Unanswered jobs of one key in a row before the key is paused, and the longest pause. */
export const KEY_PAUSE_AFTER_FAILURES = 3;
export const KEY_PAUSE_MAX_MS = 300_000;

/** Milliseconds a key is paused after `failures` unanswered jobs in a row: 1 s, 2 s, 4 s … 5 min. */
export function keyPauseMs(failures: number): number {
  if (failures < KEY_PAUSE_AFTER_FAILURES) return 0;
  return Math.min(1000 * 2 ** (failures - KEY_PAUSE_AFTER_FAILURES), KEY_PAUSE_MAX_MS);
}

/** Subscribes to "a job of queue X committed"; resolves to the unsubscribe function. */
export type JobListener = (onAdded: (queue: string) => void) => Promise<() => Promise<void>>;

export interface JobQueueOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Fallback for what no notification announces: retries coming due, expired leases, other processes' gaps. */
  pollIntervalMs: number;
  /** How long a claimed job stays invisible to other workers; a crashed run is retried after it. */
  leaseMs?: number;
  lanes?: Partial<Record<LaneName, Partial<LaneSettings>>>;
  /** New work wakes the runner at once (LISTEN/NOTIFY); without it only the poll finds it. */
  listen?: JobListener;
}

export interface HandleOptions {
  /** The lane whose slots run this queue; housekeeping by default. */
  lane?: LaneName;
}

export interface EnqueueOptions {
  runAt?: Date;
  tx?: DbOrTx;
  /** What the job talks to (e.g. one webhook endpoint); limits and pauses apply per key. */
  key?: string;
}

export interface JobQueue {
  /** Register the handler of a queue. One handler per queue. */
  handle<P>(queue: string, handler: JobHandler<P>, opts?: HandleOptions): void;
  /** Adds a job; pass the transaction of the change it belongs to so both commit together. */
  enqueue(queue: string, payload: unknown, opts?: EnqueueOptions): Promise<string>;
  /** Runs due jobs in every lane until none is due and none runs (tests drive time with a ManualClock and call this). */
  drain(): Promise<number>;
  /** Runs jobs in the background: woken by new work, a finished job and every pollIntervalMs. */
  start(): void;
  /** Stops claiming and waits up to graceMs for running jobs to finish. */
  stop(graceMs?: number): Promise<void>;
}

interface Lane extends LaneSettings {
  name: LaneName;
  queues: string[];
  running: number;
  /** The claim loop of this lane, while one runs; at most one per lane. */
  pumping?: Promise<void>;
  /** Something changed during the claim loop (a slot freed, work added): loop once more. */
  again: boolean;
}

interface ClaimedRow {
  id: string;
  queue: string;
  payload: unknown;
  attempts: number;
  key: string | null;
}

const iso = (d: Date) => d.toISOString();

/**
 * A runner with slots per lane: each lane claims as many due jobs as it has free slots, and a
 * finished job frees its slot at once and makes the lane claim again. Jobs stay durable rows
 * (FOR UPDATE SKIP LOCKED under a lease), so several processes share the work and a crashed
 * run is taken again when its lease expires.
 */
export function createJobQueue(opts: JobQueueOptions): JobQueue {
  const { db, clock, logger } = opts;
  const leaseMs = opts.leaseMs ?? 60_000;
  const handlers = new Map<string, JobHandler>();
  const lanes = new Map<LaneName, Lane>(
    LANES.map((name) => [name, { name, ...DEFAULT_LANES[name], ...opts.lanes?.[name], queues: [], running: 0, again: false }]),
  );
  const laneOf = new Map<string, Lane>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let live = false;
  let draining = 0;
  let claimed = 0;
  /** Jobs of this process that have ended (drain compares it before and after a round of claims). */
  let ended = 0;

  const due = (now: Date): SQL =>
    sql`((state = 'pending' and run_at <= ${iso(now)}) or (state = 'running' and locked_until < ${iso(now)}))`;

  async function claim(lane: Lane, limit: number): Promise<ClaimedRow[]> {
    if (lane.queues.length === 0 || limit <= 0) return [];
    const now = clock.now();
    const lockedUntil = new Date(now.getTime() + leaseMs);
    const queues = sql.join(
      lane.queues.map((q) => sql`${q}`),
      sql`, `,
    );
    let picked: SQL;
    if (lane.perKeyLimit === undefined) {
      picked = sql`select id from jobs where queue in (${queues}) and ${due(now)}
        order by run_at limit ${limit} for update skip locked`;
    } else {
      // Keys at their limit or paused are skipped before the limit applies, so a dead endpoint
      // with thousands of due jobs cannot fill the candidates; within the candidates, each key
      // gets only the slots it has left. Locking happens last (no window functions under FOR
      // UPDATE), and the due condition is repeated there so a row another process claimed in
      // the meantime is re-checked and skipped.
      const cap = lane.perKeyLimit;
      picked = sql`with busy as (
          select concurrency_key as key, count(*) as n from jobs
          where state = 'running' and locked_until >= ${iso(now)} and concurrency_key is not null
          group by concurrency_key),
        candidates as (
          select id, concurrency_key, run_at from jobs
          where queue in (${queues}) and ${due(now)}
            and (concurrency_key is null or (
              concurrency_key not in (select key from busy where n >= ${cap})
              and concurrency_key not in (select key from job_key_pauses where paused_until > ${iso(now)})))
          order by run_at limit ${limit * 4}),
        ranked as (
          select c.id, c.run_at, c.concurrency_key,
            coalesce(b.n, 0) + row_number() over (partition by c.concurrency_key order by c.run_at) as nth
          from candidates c left join busy b on b.key = c.concurrency_key)
        select id from jobs
        where id in (select id from ranked where concurrency_key is null or nth <= ${cap}) and ${due(now)}
        order by run_at limit ${limit} for update skip locked`;
    }
    const result = await db.execute(sql`
      update jobs set state = 'running', attempts = attempts + 1,
        locked_until = ${iso(lockedUntil)}, updated_at = ${iso(now)}
      where id in (${picked})
      returning id, queue, payload, attempts, concurrency_key`);
    return rowsOf(result).map((r) => ({
      id: r.id as string,
      queue: r.queue as string,
      payload: r.payload,
      attempts: Number(r.attempts),
      key: (r.concurrency_key as string | null) ?? null,
    }));
  }

  /** Records the outcome, and the health of the job's key, in one statement. */
  async function finish(
    row: ClaimedRow,
    values: { state: 'pending' | 'done' | 'failed'; runAt?: Date; lastError: string | null },
    keyFailed = false,
  ): Promise<void> {
    const now = clock.now();
    const update = sql`update jobs set state = ${values.state}, last_error = ${values.lastError}, locked_until = null,
      updated_at = ${iso(now)}${values.runAt ? sql`, run_at = ${iso(values.runAt)}` : sql``}
      where id = ${row.id} and state = 'running'`;
    if (row.key === null) {
      await db.execute(update);
      return;
    }
    const key = keyFailed
      ? sql`insert into job_key_pauses (key, failures, paused_until, updated_at)
          values (${row.key}, 1, ${keyPauseMs(1) > 0 ? iso(new Date(now.getTime() + keyPauseMs(1))) : null}, ${iso(now)})
          on conflict (key) do update set failures = job_key_pauses.failures + 1,
            paused_until = case when job_key_pauses.failures + 1 >= ${KEY_PAUSE_AFTER_FAILURES}
              then ${iso(now)}::timestamptz + make_interval(secs => least(
                power(2, job_key_pauses.failures + 1 - ${KEY_PAUSE_AFTER_FAILURES}), ${KEY_PAUSE_MAX_MS / 1000}))
              else null end,
            updated_at = ${iso(now)}`
      : sql`delete from job_key_pauses where key = ${row.key}`;
    await db.execute(sql`with finished as (${update} returning id), key_health as (${key}) select count(*) from finished`);
  }

  async function run(row: ClaimedRow): Promise<void> {
    const handler = handlers.get(row.queue)!;
    try {
      const outcome = await handler({ id: row.id, queue: row.queue, payload: row.payload, attempt: row.attempts });
      if (outcome && 'retryAt' in outcome) {
        await finish(row, { state: 'pending', runAt: outcome.retryAt, lastError: outcome.error ?? null }, outcome.keyFailed);
      } else if (outcome && 'fail' in outcome) {
        await finish(row, { state: 'failed', lastError: outcome.fail }, outcome.keyFailed);
      } else {
        await finish(row, { state: 'done', lastError: null }, outcome?.keyFailed);
      }
    } catch (err) {
      // A handler that throws has a bug or lost its database; keep the job and try again later.
      logger.error({ err, jobId: row.id, queue: row.queue }, 'job handler threw');
      const retryAt = new Date(clock.now().getTime() + Math.min(60_000 * row.attempts, 600_000));
      await db
        .execute(
          sql`update jobs set state = 'pending', run_at = ${iso(retryAt)}, last_error = ${String(err)}, locked_until = null,
            updated_at = ${iso(clock.now())} where id = ${row.id} and state = 'running'`,
        )
        .catch((e: unknown) => logger.error({ err: e, jobId: row.id }, 'could not reschedule job'));
    }
  }

  const active = () => live || draining > 0;

  function start(lane: Lane, row: ClaimedRow): void {
    lane.running += 1;
    claimed += 1;
    const p: Promise<void> = run(row).finally(() => {
      inFlight.delete(p);
      lane.running -= 1;
      ended += 1;
      // The slot is free now: take the next due job without waiting for the poll.
      if (active()) kick(lane);
    });
    inFlight.add(p);
  }

  /** Claims into the lane's free slots until they are full or nothing is due. */
  function pump(lane: Lane): Promise<void> {
    if (lane.pumping) {
      lane.again = true;
      return lane.pumping;
    }
    // `let`, not `const`: the loop's finally can run inside loop() itself, before the assignment below.
    // eslint-disable-next-line prefer-const
    let pumping: Promise<void> | undefined;
    let finished = false;
    const loop = async () => {
      try {
        do {
          lane.again = false;
          while (active() && lane.running < lane.concurrency) {
            const rows = await claim(lane, lane.concurrency - lane.running);
            if (rows.length === 0) break;
            for (const row of rows) start(lane, row);
          }
        } while (lane.again && active());
      } finally {
        // Cleared in the same tick as the last look at `again`: a pump() after this starts a
        // new loop instead of joining one that has already decided to end.
        finished = true;
        if (lane.pumping === pumping) lane.pumping = undefined;
      }
    };
    pumping = loop();
    if (!finished) lane.pumping = pumping;
    return pumping;
  }

  function kick(lane: Lane): void {
    pump(lane).catch((err: unknown) => logger.warn({ err, lane: lane.name }, 'job claim failed'));
  }

  function kickAll(): void {
    for (const lane of lanes.values()) kick(lane);
  }

  /**
   * A job that ends may have committed work for another lane (a fan-out enqueues deliveries)
   * after that lane's claim found nothing. So drain returns only after a round in which every
   * lane claimed and no job ended: then each lane's last claim came after every commit of this
   * process's jobs.
   */
  async function drain(): Promise<number> {
    draining += 1;
    const before = claimed;
    try {
      for (;;) {
        const endedBefore = ended;
        await Promise.all([...lanes.values()].map(pump));
        const pumps = [...lanes.values()].flatMap((l) => (l.pumping ? [l.pumping.catch(() => {})] : []));
        if (inFlight.size > 0 || pumps.length > 0) await Promise.race([...inFlight, ...pumps]);
        else if (ended === endedBefore) return claimed - before;
      }
    } finally {
      draining -= 1;
    }
  }

  return {
    handle(queue, handler, o = {}) {
      if (handlers.has(queue)) throw new Error(`queue ${queue} already has a handler`);
      const lane = lanes.get(o.lane ?? 'housekeeping')!;
      handlers.set(queue, handler as JobHandler);
      lane.queues.push(queue);
      laneOf.set(queue, lane);
      if (live) kick(lane);
    },
    async enqueue(queue, payload, o = {}) {
      const now = clock.now();
      const [row] = await (o.tx ?? db)
        .insert(jobs)
        .values({ queue, payload, state: 'pending', runAt: o.runAt ?? now, concurrencyKey: o.key ?? null, createdAt: now, updatedAt: now })
        .returning({ id: jobs.id });
      return row!.id;
    },
    drain,
    start() {
      if (live) return;
      live = true;
      timer = setInterval(kickAll, opts.pollIntervalMs);
      timer.unref();
      opts
        .listen?.((queue) => {
          const lane = laneOf.get(queue);
          if (lane && live) kick(lane);
        })
        .then(
          (off) => {
            if (live) unlisten = off;
            else void off().catch(() => {});
          },
          (err: unknown) => logger.warn({ err }, 'could not listen for new jobs; polling only'),
        );
      kickAll();
    },
    async stop(graceMs = 10_000) {
      live = false;
      if (timer) clearInterval(timer);
      timer = undefined;
      await unlisten?.().catch(() => {});
      unlisten = undefined;
      if (inFlight.size === 0) return;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    },
  };
}
