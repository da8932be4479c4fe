import { LANES, type LaneName } from './kinds.js';
import { warningThrottle, type WarningThrottle } from './backoff.js';
import type { ClaimedJob } from './repo.js';

export interface LaneSettings {
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

/** A job claimed and not started yet, with the end of its lease. */
export interface ReadyJob {
  job: ClaimedJob;
  lockedUntil: Date;
}

/** A job this process started and whose end is not written yet: its claim is renewed. */
export interface HeldJob {
  job: ClaimedJob;
  /** Its end (or its reschedule after an error) is being written: a renewal that misses it proves nothing. */
  ending: boolean;
  /** Its lease was lost (said once in the log): no longer renewed. */
  lost: boolean;
}

export interface Lane extends LaneSettings {
  name: LaneName;
  queues: string[];
  running: number;
  /** Jobs whose handlers have returned and whose ends are not written yet (they hold no slot). */
  ending: number;
  /** Claimed ahead (prefetch), oldest first, with the end of their lease. */
  ready: ReadyJob[];
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

/** Every lane, idle, with its default settings under the options' own. */
export function createLanes(settings?: Partial<Record<LaneName, Partial<LaneSettings>>>): Map<LaneName, Lane> {
  return new Map<LaneName, Lane>(
    LANES.map((name) => [
      name,
      {
        name,
        ...DEFAULT_LANES[name],
        ...settings?.[name],
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
}
