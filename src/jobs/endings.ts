import { createGroupCommit } from '../lib/group-commit.js';
import { finishJobs, roundsOfEnds, type ClaimedJob, type JobEnd } from './repo.js';
import type { HeldJob, Lane } from './lanes.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { Runner } from './runner.js';
import type { JobOutcome } from './types.js';

interface Ending {
  job: ClaimedJob;
  end: JobEnd;
}

/** What became of one end: written, left alone because another claim holds its job, or failed. */
type EndResult = { written: boolean } | { error: unknown };

/** Ends written together at most; more wait for the next statement. */
const MAX_ENDS_PER_STATEMENT = 64;

export function endOf(outcome: JobOutcome, now: Date): JobEnd {
  const keyFailed = outcome?.keyFailed ?? false;
  const writes = outcome?.writes ?? [];
  if (outcome && 'retryAt' in outcome) {
    return { state: 'pending', runAt: outcome.retryAt, lastError: outcome.error ?? null, keyFailed, writes, now };
  }
  if (outcome && 'fail' in outcome) return { state: 'failed', lastError: outcome.fail, keyFailed, writes, now };
  return { state: 'done', lastError: null, keyFailed, writes, now };
}

/** Writes the end of a job: throws when it could not, and says a lost lease when another claim holds the job. */
export type FinishJob = (lane: Lane, held: HeldJob, end: JobEnd) => Promise<void>;

export function createEndings({ books }: Runner, leases: LeaseKeeper): FinishJob {
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

  return async function finish(lane, held, end) {
    held.ending = true;
    const result = await ends.add(lane.name, { job: held.job, end });
    if ('error' in result) throw result.error;
    if (!result.written) leases.leaseLost(lane, [held]);
  };
}
