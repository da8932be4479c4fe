import type { Meter } from '../metrics/meter.js';
import { claimRetryMs } from './backoff.js';
import { claimDue, releaseJobs, type ClaimedJob } from './repo.js';
import type { Lane, ReadyJob } from './lanes.js';
import { isActive, type Runner } from './runner.js';

export interface Claims {
  /** Claims up to `limit` due jobs of the lane into its ready list; answers how many. */
  claim(lane: Lane, limit: number): Promise<number>;
  /** Gives claimed jobs back unrun, for any process to claim again. */
  handBack(jobs: ReadyJob[]): Promise<void>;
  /** Whether this error of a claim was counted and logged where it happened (claimFailed). */
  wasReported(err: unknown): boolean;
  /** Stops waiting out the delays after failed claims. */
  cancelRetries(): void;
}

/**
 * The lane's claims of due jobs, and their backoff while the database does not answer.
 * `kick` makes a lane claim again once it has waited out its delay.
 */
export function createClaims(runner: Runner, meter: Pick<Meter, 'jobClaimFailed'>, kick: (lane: Lane) => void): Claims {
  const { books, clock, logger, leaseMs } = runner;
  /** Claim errors already counted and logged where they happened (claimFailed). */
  const reported = new WeakSet<object>();

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
    if (!isActive(runner)) {
      await handBack(claimedNow);
      return 0;
    }
    lane.ready.push(...claimedNow);
    return rows.length;
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
    if (runner.live && !lane.retry) {
      lane.retry = setTimeout(() => {
        lane.retry = undefined;
        if (runner.live) kick(lane);
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

  function handBack(jobs: ReadyJob[]): Promise<void> {
    return releaseJobs(
      books,
      jobs.map(({ job, lockedUntil }) => ({ id: job.id, lockedUntil })),
      clock.now(),
    ).catch((err: unknown) => logger.warn({ err }, 'could not hand back claimed jobs; their leases will run out'));
  }

  return {
    claim,
    handBack,
    wasReported: (err) => typeof err === 'object' && err !== null && reported.has(err),
    cancelRetries() {
      for (const lane of runner.lanes.values()) {
        if (lane.retry) clearTimeout(lane.retry);
        lane.retry = undefined;
      }
    },
  };
}
