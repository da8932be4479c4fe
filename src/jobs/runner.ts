import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { LaneName } from './kinds.js';
import { createLanes, type Lane } from './lanes.js';
import { DEFAULT_LEASE_MS, type JobQueueOptions } from './types.js';

/**
 * What the parts of one job queue share (claims, the lane pump, the lease keeper, the endings):
 * where they write, the lease, the lanes, and whether the queue runs.
 */
export interface Runner {
  /** Where claims and job ends are written (Database.bookkeeping). */
  books: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  leaseMs: number;
  lanes: Map<LaneName, Lane>;
  /** Jobs running and stale claims being handed back: a drain waits for them, stop gives them its grace. */
  inFlight: Set<Promise<void>>;
  /** Started and not stopped: the queue claims by itself. */
  live: boolean;
  /** Drains under way (a drain claims whether the queue is started or not). */
  draining: number;
  /** Jobs this process has started (drain answers how many it started). */
  claimed: number;
  /** Jobs of this process that have ended (drain compares it before and after a round of claims). */
  ended: number;
}

/** Whether anything wants jobs run now: a started queue or a drain. */
export function isActive(runner: Runner): boolean {
  return runner.live || runner.draining > 0;
}

/** A stopped runner with idle lanes, from the queue's options. */
export function createRunner(opts: JobQueueOptions): Runner {
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(leaseMs > 0)) throw new Error(`leaseMs must be positive, not ${leaseMs}`);
  return {
    books: opts.bookkeeping ?? opts.db,
    clock: opts.clock,
    logger: opts.logger,
    leaseMs,
    lanes: createLanes(opts.lanes),
    inFlight: new Set(),
    live: false,
    draining: 0,
    claimed: 0,
    ended: 0,
  };
}
