import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { isJobName, JOB_KINDS, LANES, type LaneName, type PayloadOf } from './kinds.js';
import { createGroupCommit } from '../lib/group-commit.js';
import { untracedJobs, type JobTracing } from '../tracing/jobs.js';
import { silentMeter, type Meter } from '../metrics/meter.js';
import { claimRetryMs, warningThrottle, type WarningThrottle } from './backoff.js';
import {
  claimDue,
  finishJobs,
  insertJob,
  insertJobUnlessPending,
  releaseJobs,
  movePendingJob,
  renewLeases,
  rescheduleAfterError,
  roundsOfEnds,
  type ClaimedJob,
  type JobEnd,
  type JobWrite,
} from './repo.js';

export { JOB_KINDS, LANES, type JobName, type LaneName, type PayloadOf } from './kinds.js';
export { KEY_PAUSE_AFTER_FAILURES, KEY_PAUSE_MAX_MS, keyPauseMs, roundsOfEnds, type JobWrite, type WriteKind } from './repo.js';

export interface Job<P = unknown> {
  id: string;
  queue: string;
  payload: P;
  /** 1 on the first run of this job, counting every claim (a crash mid-run counts too). */
  attempt: number;
}

interface OutcomeExtras {
  /**
   * The thing behind the job's concurrency key did not answer (see job_key_pauses): enough of
   * those in a row pause the key.
   */
  keyFailed?: boolean;
  /**
   * The handler's own bookkeeping, committed in the same statement as the job's outcome (one
   * round trip, atomic with it): rows of kinds of write (src/jobs/repo.ts, WriteKind), the rows
   * of one kind from all the ends written together going into one statement. They must not touch
   * `jobs` or `job_key_pauses`. They commit as bookkeeping (Database.bookkeeping): only what a
   * rerun of the job would redo.
   */
  writes?: JobWrite[];
}

/** What a handler decides about its job; returning nothing means done. */
export type JobOutcome = void | (({ done: true } | { retryAt: Date; error?: string } | { fail: string }) & OutcomeExtras);

export type JobHandler<P = unknown> = (job: Job<P>) => Promise<JobOutcome>;

interface LaneSettings {
  /** Jobs of this lane running at once in this process. */
  concurrency: number;
  /** Jobs with one concurrency key running at once (all processes together); no limit when absent. */
  perKeyLimit?: number;
  /**
   * Jobs claimed ahead of the free slots, each started the moment a slot frees (0: none). A lane
   * of short jobs then does not wait for a claim between one job and the next, and one claim
   * takes many jobs. They count against perKeyLimit from their claim on; one that waits longer
   * than half its lease is handed back unrun, and stop() hands back the rest. Their leases are
   * not renewed while they wait: a process whose slots stay full for half a lease holds work
   * that another process with free slots could be running, and giving it back is the remedy.
   */
  prefetch?: number;
}

const DEFAULT_LANES: Record<LaneName, LaneSettings> = {
  identity: { concurrency: 4 },
  deliveries: { concurrency: 32, perKeyLimit: 4, prefetch: 32 },
  housekeeping: { concurrency: 4 },
};

/** Subscribes to "a job of queue X committed"; resolves to the unsubscribe function. */
export type JobListener = (onAdded: (queue: string) => void) => Promise<() => Promise<void>>;

export interface JobQueueOptions {
  db: Db;
  /** Where claims and job ends are written (Database.bookkeeping); `db` when absent. */
  bookkeeping?: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Fallback for what no notification announces: retries coming due, expired leases, other processes' gaps. */
  pollIntervalMs: number;
  /**
   * How long a claim keeps a job from other processes unless renewed (15 s by default). The
   * process renews the claims of its running jobs every third of it, so a job may run for as
   * long as it needs, and a job whose process died is taken again at most one lease after its
   * last renewal.
   */
  leaseMs?: number;
  lanes?: Partial<Record<LaneName, Partial<LaneSettings>>>;
  /** New work wakes the runner at once (LISTEN/NOTIFY); without it only the poll finds it. */
  listen?: JobListener;
  /** Each job carries the trace of the request that queued it (tracing on); nothing by default. */
  tracing?: JobTracing;
  /** Counts failed claims per lane (jobs_claim_failures_total); nothing counts by default. */
  meter?: Pick<Meter, 'jobClaimFailed'>;
}

/** The lease of a claim unless the options say otherwise: short, since it is renewed while the job runs. */
export const DEFAULT_LEASE_MS = 15_000;

interface HandleOptions {
  /** The lane whose slots run this queue: the kind's lane (src/jobs/kinds.ts), housekeeping for other queues. */
  lane?: LaneName;
}

interface EnqueueOptions {
  runAt?: Date;
  tx?: DbOrTx;
  /** What the job talks to (e.g. one webhook endpoint); limits and pauses apply per key. */
  key?: string;
  /** Add nothing when a job of the queue with the same key and payload is pending (answers its id). */
  unlessPending?: boolean;
}

export interface JobQueue {
  /**
   * Registers the handler of a queue, one per queue. A queue of JOB_KINDS gets a handler typed
   * by its payload, and only payloads that fit reach it.
   */
  handle<Q extends string>(queue: Q, handler: JobHandler<PayloadOf<Q>>, opts?: HandleOptions): void;
  /** Adds a job; pass the transaction of the change it belongs to so both commit together. */
  enqueue<Q extends string>(queue: Q, payload: PayloadOf<Q>, opts?: EnqueueOptions): Promise<string>;
  /** Moves a pending job's next run (e.g. to now); false when it is not pending. */
  reschedule(id: string, runAt: Date, opts?: { tx?: DbOrTx }): Promise<boolean>;
  /** Runs due jobs in every lane until none is due and none runs (tests drive time with a ManualClock and call this). */
  drain(): Promise<number>;
  /**
   * Runs jobs in the background: woken by new work, a finished job and every pollIntervalMs.
   * Resolves once new work wakes it (it listens, or gave up and polls) and its first claims ran.
   */
  start(): Promise<void>;
  /**
   * Renews the leases of this process's running jobs now, one statement per lane. The runner
   * does it on its own every third of a lease while a job runs; tests that move a ManualClock
   * call it where the timer would have fired.
   */
  renew(): Promise<void>;
  /**
   * Stops claiming and waits up to graceMs for running jobs to finish. Jobs still running after
   * it are left to their leases: no longer renewed, they go to another process once those run out.
   */
  stop(graceMs?: number): Promise<void>;
}

/** A job this process started and whose end is not written yet: its claim is renewed. */
interface HeldJob {
  job: ClaimedJob;
  /** Its end (or its reschedule after an error) is being written: a renewal that misses it proves nothing. */
  ending: boolean;
  /** Its lease was lost (said once in the log): no longer renewed. */
  lost: boolean;
}

interface Lane extends LaneSettings {
  name: LaneName;
  queues: string[];
  running: number;
  /** Jobs whose handlers have returned and whose ends are not written yet (they hold no slot). */
  ending: number;
  /** Claimed ahead (prefetch), oldest first, with the end of their lease. */
  ready: { job: ClaimedJob; lockedUntil: Date }[];
  /** The claim loop of this lane, while one runs; at most one per lane. */
  pumping?: Promise<void>;
  /** Something changed during the claim loop (a slot freed, work added): loop once more. */
  again: boolean;
  /** Jobs started here and not yet ended, by id: the claims the lane renews. */
  held: Map<string, HeldJob>;
  /** The lane's renewal statement, while one runs: at most one at a time. */
  renewing?: Promise<void>;
  /** Failed claims in a row; 0 again after a claim that worked. */
  claimFailures: number;
  /** Whether a warning was written for the current run of failed claims (then its end is logged too). */
  claimWarned: boolean;
  /** Set while the lane waits out its delay after a failed claim: it claims when this fires, not before. */
  retry?: NodeJS.Timeout;
  claimWarnings: WarningThrottle;
  renewWarnings: WarningThrottle;
}

/** A stored payload read for its queue: checked against the kind of a known queue, as stored otherwise. */
function readPayload(queue: string, payload: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!isJobName(queue)) return { ok: true, value: payload };
  const parsed = JOB_KINDS[queue].payload.safeParse(payload);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    error: `payload does not fit ${queue}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
  };
}

interface Ending {
  job: ClaimedJob;
  end: JobEnd;
}

/** What became of one end: written, left alone because another claim holds its job, or failed. */
type EndResult = { written: boolean } | { error: unknown };

/** Ends written together at most; more wait for the next statement. */
const MAX_ENDS_PER_STATEMENT = 64;

function endOf(outcome: JobOutcome, now: Date): JobEnd {
  const keyFailed = outcome?.keyFailed ?? false;
  const writes = outcome?.writes ?? [];
  if (outcome && 'retryAt' in outcome) {
    return { state: 'pending', runAt: outcome.retryAt, lastError: outcome.error ?? null, keyFailed, writes, now };
  }
  if (outcome && 'fail' in outcome) return { state: 'failed', lastError: outcome.fail, keyFailed, writes, now };
  return { state: 'done', lastError: null, keyFailed, writes, now };
}

/**
 * A runner with slots per lane: each lane claims as many due jobs as it has free slots, and a
 * finished job frees its slot at once and makes the lane claim again. Jobs stay durable rows
 * (FOR UPDATE SKIP LOCKED under a lease, src/jobs/repo.ts), so several processes share the work
 * and a crashed run is taken again when its lease expires.
 */
export function createJobQueue(opts: JobQueueOptions): JobQueue {
  const { db, clock, logger } = opts;
  const books = opts.bookkeeping ?? db;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(leaseMs > 0)) throw new Error(`leaseMs must be positive, not ${leaseMs}`);
  const tracing = opts.tracing ?? untracedJobs;
  const meter = opts.meter ?? silentMeter;
  const handlers = new Map<string, JobHandler>();
  const lanes = new Map<LaneName, Lane>(
    LANES.map((name) => [
      name,
      {
        name,
        ...DEFAULT_LANES[name],
        ...opts.lanes?.[name],
        queues: [],
        running: 0,
        ending: 0,
        ready: [],
        again: false,
        held: new Map(),
        claimFailures: 0,
        claimWarned: false,
        claimWarnings: warningThrottle(),
        renewWarnings: warningThrottle(),
      },
    ]),
  );
  const laneOf = new Map<string, Lane>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  /** Renews every lane's held claims every third of a lease; runs only while some lane holds one. */
  let renewTimer: NodeJS.Timeout | undefined;
  /** Claim errors already counted and logged where they happened (claimFailed). */
  const reported = new WeakSet<object>();
  let unlisten: (() => Promise<void>) | undefined;
  let started: Promise<void> | undefined;
  let live = false;
  let draining = 0;
  let claimed = 0;
  /** Jobs of this process that have ended (drain compares it before and after a round of claims). */
  let ended = 0;

  /** Claims up to `limit` due jobs of the lane into its ready list; answers how many. */
  async function claim(lane: Lane, limit: number): Promise<number> {
    if (lane.queues.length === 0 || limit <= 0) return 0;
    const now = clock.now();
    const lockedUntil = new Date(now.getTime() + leaseMs);
    let rows: ClaimedJob[];
    try {
      rows = await claimDue(books, { queues: lane.queues, limit, now, lockedUntil, perKeyLimit: lane.perKeyLimit });
    } catch (err) {
      claimFailed(lane, err);
      if (typeof err === 'object' && err !== null) reported.add(err);
      throw err;
    }
    claimWorked(lane);
    const claimedNow = rows.map((job) => ({ job, lockedUntil }));
    // Stopped while this claim ran: nothing will start them here.
    if (!active()) {
      await handBack(claimedNow);
      return 0;
    }
    lane.ready.push(...claimedNow);
    return rows.length;
  }

  /**
   * Starts ready jobs in the lane's free slots. One that waited past half its lease is handed
   * back unrun (its claim uncounted): its lease could run out mid-run and another process take it.
   */
  function startReady(lane: Lane): void {
    const stale: { job: ClaimedJob; lockedUntil: Date }[] = [];
    while (lane.running < lane.concurrency && lane.ready.length > 0) {
      const next = lane.ready.shift()!;
      if (next.lockedUntil.getTime() - clock.now().getTime() < leaseMs / 2) stale.push(next);
      else start(lane, next.job);
    }
    if (stale.length === 0) return;
    // Tracked like a running job, so a drain waits for it; then the lane claims them afresh.
    const p: Promise<void> = handBack(stale).finally(() => {
      inFlight.delete(p);
      if (active()) kick(lane);
    });
    inFlight.add(p);
  }

  /**
   * A claim that failed (the database is unreachable, most likely): counted, and the lane waits
   * 250 ms, then twice as long after each further failure up to 5 s, before it claims again,
   * whatever polls, notifications and ended jobs ask in between (kick). One warning per lane
   * per 30 s at most, saying how many were left out.
   */
  function claimFailed(lane: Lane, err: unknown): void {
    lane.claimFailures += 1;
    meter.jobClaimFailed(lane.name);
    const retryInMs = claimRetryMs(lane.claimFailures);
    const warning = lane.claimWarnings.note(clock.now().getTime());
    if (warning) {
      lane.claimWarned = true;
      logger.warn(
        { err, lane: lane.name, failures: lane.claimFailures, suppressed: warning.suppressed, retryInMs },
        'job claim failed; claiming again after a delay',
      );
    }
    // Only the running runner retries by itself; a drain's caller gets the error.
    if (live && !lane.retry) {
      lane.retry = setTimeout(() => {
        lane.retry = undefined;
        if (live) kick(lane);
      }, retryInMs);
      lane.retry.unref();
    }
  }

  function claimWorked(lane: Lane): void {
    if (lane.claimFailures === 0) return;
    if (lane.claimWarned) logger.info({ lane: lane.name, failures: lane.claimFailures }, 'job claims work again');
    lane.claimFailures = 0;
    lane.claimWarned = false;
    if (lane.retry) clearTimeout(lane.retry);
    lane.retry = undefined;
  }

  function hold(lane: Lane, job: ClaimedJob): HeldJob {
    const held = { job, ending: false, lost: false };
    lane.held.set(job.id, held);
    if (!renewTimer) {
      renewTimer = setInterval(() => {
        for (const l of lanes.values()) if (!l.renewing) void renewLane(l);
      }, leaseMs / 3);
      renewTimer.unref();
    }
    return held;
  }

  function letGo(lane: Lane, held: HeldJob): void {
    if (lane.held.get(held.job.id) === held) lane.held.delete(held.job.id);
    if (renewTimer && [...lanes.values()].every((l) => l.held.size === 0)) {
      clearInterval(renewTimer);
      renewTimer = undefined;
    }
  }

  /**
   * Extends the leases of the lane's held jobs in one statement. A job the statement no longer
   * finds under its claim lost its lease (this process stalled or could not reach the database
   * for a whole lease, and another took the job): said once, and neither renewed nor ended here
   * from then on (finishJobs leaves it to the claim that holds it).
   */
  function renewLane(lane: Lane): Promise<void> {
    const held = [...lane.held.values()].filter((h) => !h.lost);
    if (held.length === 0) return Promise.resolve();
    const lockedUntil = new Date(clock.now().getTime() + leaseMs);
    const renewing: Promise<void> = renewLeases(
      books,
      held.map((h) => h.job),
      lockedUntil,
    )
      .then(
        (kept) => {
          // One whose end was written meanwhile is not lost; its end tells.
          leaseLost(
            lane,
            held.filter((h) => !kept.has(h.job.id) && !h.ending && lane.held.get(h.job.id) === h),
          );
        },
        (err: unknown) => {
          const warning = lane.renewWarnings.note(clock.now().getTime());
          if (warning)
            logger.warn(
              { err, lane: lane.name, suppressed: warning.suppressed },
              'could not renew job leases; trying again a third of a lease later',
            );
        },
      )
      .finally(() => {
        if (lane.renewing === renewing) lane.renewing = undefined;
      });
    lane.renewing = renewing;
    return renewing;
  }

  function leaseLost(lane: Lane, lost: HeldJob[]): void {
    const fresh = lost.filter((h) => !h.lost);
    if (fresh.length === 0) return;
    for (const h of fresh) h.lost = true;
    logger.warn(
      { lane: lane.name, jobs: fresh.map((h) => ({ jobId: h.job.id, queue: h.job.queue })) },
      'job lease lost: another process may run the job; its end is left to that process',
    );
  }

  function handBack(jobs: { job: ClaimedJob; lockedUntil: Date }[]): Promise<void> {
    return releaseJobs(
      books,
      jobs.map(({ job, lockedUntil }) => ({ id: job.id, lockedUntil })),
      clock.now(),
    ).catch((err: unknown) => logger.warn({ err }, 'could not hand back claimed jobs; their leases will run out'));
  }

  /**
   * Job ends are group-committed per lane: ends that arrive while the lane's last ones are being
   * written are written together next, one statement per round (roundsOfEnds). When a shared
   * statement fails, each of its ends is tried alone, so one end's fault stays its own (and its
   * job is rescheduled as a handler's error would be).
   */
  const ends = createGroupCommit<Ending, EndResult>(async (_lane, items) => {
    const results: EndResult[] = items.map(() => ({ written: false }));
    for (const round of roundsOfEnds(items)) {
      try {
        const written = await finishJobs(
          books,
          round.map((i) => items[i]!),
        );
        for (const i of round) results[i] = { written: written.has(items[i]!.job.id) };
      } catch (err) {
        if (round.length === 1) results[round[0]!] = { error: err };
        else
          for (const i of round)
            await finishJobs(books, [items[i]!]).then(
              (written) => (results[i] = { written: written.has(items[i]!.job.id) }),
              (e: unknown) => (results[i] = { error: e }),
            );
      }
    }
    return results;
  }, MAX_ENDS_PER_STATEMENT);

  async function finish(lane: Lane, held: HeldJob, end: JobEnd): Promise<void> {
    held.ending = true;
    const result = await ends.add(lane.name, { job: held.job, end });
    if ('error' in result) throw result.error;
    if (!result.written) leaseLost(lane, [held]);
  }

  async function run(lane: Lane, held: HeldJob, free: () => void): Promise<void> {
    const row = held.job;
    try {
      const handler = handlers.get(row.queue);
      if (!handler) throw new Error(`no handler for queue ${row.queue}`);
      const payload = readPayload(row.queue, row.payload);
      if (!payload.ok) {
        logger.error({ jobId: row.id, queue: row.queue, error: payload.error }, 'job payload does not fit its queue');
        await finish(lane, held, { state: 'failed', lastError: payload.error, keyFailed: false, writes: [], now: clock.now() });
        return;
      }
      const job = { id: row.id, queue: row.queue, payload: payload.value, attempt: row.attempts };
      const outcome = await tracing.runJob({ ...job, traceParent: row.traceParent }, () => handler(job));
      free();
      await finish(lane, held, endOf(outcome, clock.now()));
    } catch (err) {
      // A handler that throws has a bug or lost its database; keep the job and try again later.
      logger.error({ err, jobId: row.id, queue: row.queue }, 'job handler threw');
      const retryAt = new Date(clock.now().getTime() + Math.min(60_000 * row.attempts, 600_000));
      held.ending = true;
      await rescheduleAfterError(books, row, retryAt, String(err), clock.now()).then(
        (moved) => {
          if (!moved) leaseLost(lane, [held]);
        },
        (e: unknown) => logger.error({ err: e, jobId: row.id }, 'could not reschedule job'),
      );
    }
  }

  const active = () => live || draining > 0;

  function start(lane: Lane, row: ClaimedJob): void {
    lane.running += 1;
    claimed += 1;
    const held = hold(lane, row);
    let freed = false;
    // The slot frees when the handler returns: writing the end (group-committed, src/jobs/repo.ts)
    // takes a round trip or two, and the next job need not wait for it.
    const free = () => {
      if (freed) return;
      freed = true;
      lane.running -= 1;
      lane.ending += 1;
      if (active()) {
        startReady(lane);
        kick(lane);
      }
    };
    const p: Promise<void> = run(lane, held, free).finally(() => {
      inFlight.delete(p);
      letGo(lane, held);
      free();
      lane.ending -= 1;
      ended += 1;
      // The end is written: the lane claims again without waiting for the poll (it may have
      // stopped claiming while a lane's worth of ends waited).
      if (active()) {
        startReady(lane);
        kick(lane);
      }
    });
    inFlight.add(p);
  }

  /** Claims into the lane's free slots (and its prefetch) until they are full or nothing is due. */
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
          while (active()) {
            startReady(lane);
            // Enough to fill the free slots and the lane's prefetch; with a prefetch, only once
            // half of it is used, so that one claim takes many jobs.
            const prefetch = lane.prefetch ?? 0;
            const wanted = lane.concurrency + prefetch - lane.running - lane.ready.length;
            // Ends waiting to be written by a whole lane's worth: the database is behind, and
            // more work claimed now would only wait longer; each written end kicks the lane again.
            if (lane.ending >= lane.concurrency) break;
            const low = lane.running < lane.concurrency || lane.ready.length <= prefetch / 2;
            if (wanted <= 0 || !low) break;
            if ((await claim(lane, wanted)) === 0) break;
          }
          if (active()) startReady(lane);
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

  /** Claims into the lane's free slots, unless it waits out a delay after a failed claim. */
  function kick(lane: Lane): void {
    if (lane.retry) return;
    pumpQuietly(lane);
  }

  function pumpQuietly(lane: Lane): Promise<void> {
    return pump(lane).catch((err: unknown) => {
      // A failed claim was counted and logged where it failed (claimFailed).
      if (typeof err !== 'object' || err === null || !reported.has(err)) logger.warn({ err, lane: lane.name }, 'job claim failed');
    });
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

  // The one signature callers see types the handler by its queue's kind; this body is the same
  // for every kind: the payload it passes on was checked against that kind (readPayload).
  function handle<Q extends string>(queue: Q, handler: JobHandler<PayloadOf<Q>>, o?: HandleOptions): void;
  function handle(queue: string, handler: JobHandler, o: HandleOptions = {}): void {
    if (handlers.has(queue)) throw new Error(`queue ${queue} already has a handler`);
    const lane = lanes.get(o.lane ?? (isJobName(queue) ? JOB_KINDS[queue].lane : 'housekeeping'));
    if (!lane) throw new Error(`unknown lane ${o.lane}`);
    handlers.set(queue, handler);
    lane.queues.push(queue);
    laneOf.set(queue, lane);
    if (live) kick(lane);
  }

  return {
    handle,
    async enqueue(queue: string, payload: unknown, o: EnqueueOptions = {}) {
      // A payload its handler would refuse is refused here, inside the caller's transaction.
      if (isJobName(queue)) JOB_KINDS[queue].payload.parse(payload);
      const now = clock.now();
      return (o.unlessPending ? insertJobUnlessPending : insertJob)(o.tx ?? db, {
        queue,
        payload,
        runAt: o.runAt ?? now,
        key: o.key ?? null,
        now,
        traceParent: tracing.currentTraceParent(),
      });
    },
    reschedule: (id, runAt, o = {}) => movePendingJob(o.tx ?? db, id, runAt, clock.now()),
    drain,
    async renew() {
      await Promise.all(
        [...lanes.values()].map(async (lane) => {
          await lane.renewing;
          await renewLane(lane);
        }),
      );
    },
    start() {
      if (live && started) return started;
      live = true;
      timer = setInterval(kickAll, opts.pollIntervalMs);
      timer.unref();
      kickAll();
      const listening = opts.listen
        ? opts
            .listen((queue) => {
              const lane = laneOf.get(queue);
              if (lane && live) kick(lane);
            })
            .then(
              (off) => {
                if (live) unlisten = off;
                else void off().catch(() => {});
              },
              (err: unknown) => logger.warn({ err }, 'could not listen for new jobs; polling only'),
            )
        : Promise.resolve();
      // Claimed once more when the subscription is in place: a job committed before it took
      // effect announced itself to nobody, and is found here instead of at the next poll.
      started = listening.then(() =>
        Promise.all([...lanes.values()].map((lane) => (live && !lane.retry ? pumpQuietly(lane) : undefined))).then(() => {}),
      );
      return started;
    },
    async stop(graceMs = 10_000) {
      live = false;
      started = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
      for (const lane of lanes.values()) {
        if (lane.retry) clearTimeout(lane.retry);
        lane.retry = undefined;
      }
      await unlisten?.().catch(() => {});
      unlisten = undefined;
      // Jobs claimed ahead go back now, for another process to take without waiting for their leases.
      const ready = [...lanes.values()].flatMap((lane) => lane.ready.splice(0));
      if (ready.length > 0) await handBack(ready);
      if (inFlight.size > 0) {
        await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
      }
      // Past the grace, what still runs is left to its leases: renewing them would keep those
      // jobs from every other process for as long as this one lingers.
      for (const lane of lanes.values()) lane.held.clear();
      if (renewTimer) clearInterval(renewTimer);
      renewTimer = undefined;
    },
  };
}
