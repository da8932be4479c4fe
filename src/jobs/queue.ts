import { isJobName, JOB_KINDS, type PayloadOf } from './kinds.js';
import { untracedJobs } from '../tracing/jobs.js';
import { silentMeter } from '../metrics/meter.js';
import { insertJob, insertJobUnlessPending, movePendingJob } from './repo.js';
import { createClaims } from './claims.js';
import { createEndings } from './endings.js';
import { createJobRun } from './job-run.js';
import { createLanePump } from './lane-pump.js';
import type { Lane } from './lanes.js';
import { createLeaseKeeper } from './lease-keeper.js';
import { createRunner } from './runner.js';
import type { EnqueueOptions, HandleOptions, JobHandler, JobQueue, JobQueueOptions } from './types.js';

export { JOB_KINDS, LANES, type JobName, type LaneName, type PayloadOf } from './kinds.js';
export { KEY_PAUSE_AFTER_FAILURES, KEY_PAUSE_MAX_MS, keyPauseMs, roundsOfEnds, type JobWrite, type WriteKind } from './repo.js';
export {
  DEFAULT_LEASE_MS,
  type Job,
  type JobHandler,
  type JobListener,
  type JobOutcome,
  type JobQueue,
  type JobQueueOptions,
} from './types.js';

/**
 * A runner with slots per lane: each lane claims as many due jobs as it has free slots, and a
 * finished job frees its slot at once and makes the lane claim again. Jobs stay durable rows
 * (FOR UPDATE SKIP LOCKED under a lease, src/jobs/repo.ts), so several processes share the work
 * and a crashed run is taken again when its lease expires.
 */
export function createJobQueue(opts: JobQueueOptions): JobQueue {
  const { db } = opts;
  const runner = createRunner(opts);
  const { clock, logger, lanes, inFlight } = runner;
  const tracing = opts.tracing ?? untracedJobs;
  const handlers = new Map<string, JobHandler>();
  const leases = createLeaseKeeper(runner);
  const finish = createEndings(runner, leases);
  // The claims' backoff and a started job's end wake the lane pump, built last from both.
  const claims = createClaims(runner, opts.meter ?? silentMeter, (lane) => lanePump.kick(lane));
  const startJob = createJobRun(runner, { handlers, tracing, finish, leases, refill: (lane) => lanePump.refill(lane) });
  const lanePump = createLanePump(runner, { claims, startJob });
  const { pump, kick, pumpQuietly, kickAll } = lanePump;
  const laneOf = new Map<string, Lane>();
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let started: Promise<void> | undefined;

  /**
   * A job that ends may have committed work for another lane (a fan-out enqueues deliveries)
   * after that lane's claim found nothing. So drain returns only after a round in which every
   * lane claimed and no job ended: then each lane's last claim came after every commit of this
   * process's jobs.
   */
  async function drain(): Promise<number> {
    runner.draining += 1;
    const before = runner.claimed;
    try {
      for (;;) {
        const endedBefore = runner.ended;
        await Promise.all([...lanes.values()].map(pump));
        const pumps = [...lanes.values()].flatMap((l) => (l.pumping ? [l.pumping.catch(() => {})] : []));
        if (inFlight.size > 0 || pumps.length > 0) await Promise.race([...inFlight, ...pumps]);
        else if (runner.ended === endedBefore) return runner.claimed - before;
      }
    } finally {
      runner.draining -= 1;
    }
  }

  // The one signature callers see types the handler by its queue's kind; this body is the same
  // for every kind: the payload it passes on was checked against that kind (readPayload, src/jobs/job-run.ts).
  function handle<Q extends string>(queue: Q, handler: JobHandler<PayloadOf<Q>>, o?: HandleOptions): void;
  function handle(queue: string, handler: JobHandler, o: HandleOptions = {}): void {
    if (handlers.has(queue)) throw new Error(`queue ${queue} already has a handler`);
    const lane = lanes.get(o.lane ?? (isJobName(queue) ? JOB_KINDS[queue].lane : 'housekeeping'));
    if (!lane) throw new Error(`unknown lane ${o.lane}`);
    handlers.set(queue, handler);
    lane.queues.push(queue);
    laneOf.set(queue, lane);
    if (runner.live) kick(lane);
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
    renew: () => leases.renewAll(),
    start() {
      if (runner.live && started) return started;
      runner.live = true;
      timer = setInterval(kickAll, opts.pollIntervalMs);
      timer.unref();
      kickAll();
      const listening = opts.listen
        ? opts
            .listen((queue) => {
              const lane = laneOf.get(queue);
              if (lane && runner.live) kick(lane);
            })
            .then(
              (off) => {
                if (runner.live) unlisten = off;
                else void off().catch(() => {});
              },
              (err: unknown) => logger.warn({ err }, 'could not listen for new jobs; polling only'),
            )
        : Promise.resolve();
      // Claimed once more when the subscription is in place: a job committed before it took
      // effect announced itself to nobody, and is found here instead of at the next poll.
      started = listening.then(() =>
        Promise.all([...lanes.values()].map((lane) => (runner.live && !lane.retry ? pumpQuietly(lane) : undefined))).then(() => {}),
      );
      return started;
    },
    async stop(graceMs = 10_000) {
      runner.live = false;
      started = undefined;
      if (timer) clearInterval(timer);
      timer = undefined;
      claims.cancelRetries();
      await unlisten?.().catch(() => {});
      unlisten = undefined;
      // Jobs claimed ahead go back now, for another process to take without waiting for their leases.
      const ready = [...lanes.values()].flatMap((lane) => lane.ready.splice(0));
      if (ready.length > 0) await claims.handBack(ready);
      if (inFlight.size > 0) {
        await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
      }
      // Past the grace, what still runs is left to its leases: renewing them would keep those
      // jobs from every other process for as long as this one lingers.
      leases.letGoAll();
    },
  };
}
