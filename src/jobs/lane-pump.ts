import type { Claims } from './claims.js';
import type { StartJob } from './job-run.js';
import type { Lane, ReadyJob } from './lanes.js';
import { isActive, type Runner } from './runner.js';

export interface LanePump {
  /** Claims into the lane's free slots (and its prefetch) until they are full or nothing is due. */
  pump(lane: Lane): Promise<void>;
  /** Claims into the lane's free slots, unless it waits out a delay after a failed claim. */
  kick(lane: Lane): void;
  /** pump, with a failed claim logged instead of thrown. */
  pumpQuietly(lane: Lane): Promise<void>;
  kickAll(): void;
  /** A slot freed or an end was written: start what is ready in the lane and claim again. */
  refill(lane: Lane): void;
}

interface LanePumpParts {
  claims: Claims;
  startJob: StartJob;
}

/**
 * Each lane claims as many due jobs as it has free slots, and a finished job frees its slot at
 * once and makes the lane claim again.
 */
export function createLanePump(runner: Runner, { claims, startJob }: LanePumpParts): LanePump {
  const { clock, logger, leaseMs, lanes, inFlight } = runner;
  const active = () => isActive(runner);

  /**
   * Starts ready jobs in the lane's free slots. One that waited past half its lease is handed
   * back unrun (its claim uncounted): its lease could run out mid-run and another process take it.
   */
  function startReady(lane: Lane): void {
    const stale: ReadyJob[] = [];
    while (lane.running < lane.concurrency && lane.ready.length > 0) {
      const next = lane.ready.shift()!;
      if (next.lockedUntil.getTime() - clock.now().getTime() < leaseMs / 2) stale.push(next);
      else startJob(lane, next.job);
    }
    if (stale.length === 0) return;
    // Tracked like a running job, so a drain waits for it; then the lane claims them afresh.
    const p: Promise<void> = claims.handBack(stale).finally(() => {
      inFlight.delete(p);
      if (active()) kick(lane);
    });
    inFlight.add(p);
  }

  function refill(lane: Lane): void {
    if (active()) {
      startReady(lane);
      kick(lane);
    }
  }

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
            if ((await claims.claim(lane, wanted)) === 0) break;
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

  function kick(lane: Lane): void {
    if (lane.retry) return;
    pumpQuietly(lane);
  }

  function pumpQuietly(lane: Lane): Promise<void> {
    return pump(lane).catch((err: unknown) => {
      // A failed claim was counted and logged where it failed (claimFailed).
      if (!claims.wasReported(err)) logger.warn({ err, lane: lane.name }, 'job claim failed');
    });
  }

  return {
    pump,
    kick,
    pumpQuietly,
    refill,
    kickAll() {
      for (const lane of lanes.values()) kick(lane);
    },
  };
}
