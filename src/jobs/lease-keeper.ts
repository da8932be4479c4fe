import { renewLeases, type ClaimedJob } from './repo.js';
import type { HeldJob, Lane } from './lanes.js';
import type { Runner } from './runner.js';

export interface LeaseKeeper {
  /** Holds a started job: its claim is renewed until it is let go. */
  hold(lane: Lane, job: ClaimedJob): HeldJob;
  letGo(lane: Lane, held: HeldJob): void;
  /** Says once in the log that these jobs' leases were lost, and renews them no more. */
  leaseLost(lane: Lane, lost: HeldJob[]): void;
  /** Renews every lane's held claims now, after the renewal under way in the lane. */
  renewAll(): Promise<void>;
  /** Renews nothing any more: what still runs is left to its leases. */
  letGoAll(): void;
}

/** Renews the claims of the jobs this process runs every third of a lease, and notices lost leases. */
export function createLeaseKeeper(runner: Runner): LeaseKeeper {
  const { books, clock, logger, leaseMs, lanes } = runner;
  /** Renews every lane's held claims every third of a lease; runs only while some lane holds one. */
  let renewTimer: NodeJS.Timeout | undefined;

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

  return {
    hold,
    letGo,
    leaseLost,
    async renewAll() {
      await Promise.all(
        [...lanes.values()].map(async (lane) => {
          await lane.renewing;
          await renewLane(lane);
        }),
      );
    },
    letGoAll() {
      for (const lane of lanes.values()) lane.held.clear();
      if (renewTimer) clearInterval(renewTimer);
      renewTimer = undefined;
    },
  };
}
