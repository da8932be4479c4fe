import type { JobTracing } from '../tracing/jobs.js';
import { isJobName, JOB_KINDS } from './kinds.js';
import { rescheduleAfterError, type ClaimedJob } from './repo.js';
import { endOf, type FinishJob } from './endings.js';
import type { HeldJob, Lane } from './lanes.js';
import type { LeaseKeeper } from './lease-keeper.js';
import type { Runner } from './runner.js';
import type { JobHandler } from './types.js';

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

/** Starts a claimed job in a slot of its lane. */
export type StartJob = (lane: Lane, row: ClaimedJob) => void;

interface JobRunParts {
  handlers: Map<string, JobHandler>;
  tracing: JobTracing;
  finish: FinishJob;
  leases: LeaseKeeper;
  /** A slot of the lane freed or an end was written: start what is ready and claim again. */
  refill: (lane: Lane) => void;
}

/**
 * A job's run in a slot: held (its lease renewed), its handler under its trace, then its end
 * written, or a retry when the handler throws.
 */
export function createJobRun(runner: Runner, { handlers, tracing, finish, leases, refill }: JobRunParts): StartJob {
  const { books, clock, logger, inFlight } = runner;

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
          if (!moved) leases.leaseLost(lane, [held]);
        },
        (e: unknown) => logger.error({ err: e, jobId: row.id }, 'could not reschedule job'),
      );
    }
  }

  return function start(lane, row) {
    lane.running += 1;
    runner.claimed += 1;
    const held = leases.hold(lane, row);
    let freed = false;
    // The slot frees when the handler returns: writing the end (group-committed, src/jobs/repo.ts)
    // takes a round trip or two, and the next job need not wait for it.
    const free = () => {
      if (freed) return;
      freed = true;
      lane.running -= 1;
      lane.ending += 1;
      refill(lane);
    };
    const p: Promise<void> = run(lane, held, free).finally(() => {
      inFlight.delete(p);
      leases.letGo(lane, held);
      free();
      lane.ending -= 1;
      runner.ended += 1;
      // The end is written: the lane claims again without waiting for the poll (it may have
      // stopped claiming while a lane's worth of ends waited).
      refill(lane);
    });
    inFlight.add(p);
  };
}
