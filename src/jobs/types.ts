import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { JobTracing } from '../tracing/jobs.js';
import type { Meter } from '../metrics/meter.js';
import type { LaneName, PayloadOf } from './kinds.js';
import type { LaneSettings } from './lanes.js';
import type { JobWrite } from './repo.js';

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

export interface HandleOptions {
  /** The lane whose slots run this queue: the kind's lane (src/jobs/kinds.ts), housekeeping for other queues. */
  lane?: LaneName;
}

export interface EnqueueOptions {
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
