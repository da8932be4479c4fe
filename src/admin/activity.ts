import type { Db } from '../db/client.js';
import { isJobName, JOB_KINDS, LANES, type LaneName } from '../jobs/kinds.js';
import type { Clock } from '../lib/clock.js';
import { createIdentityOperatorReads } from '../identity/service.js';
import { attemptsPerMinute, queuedPerMinute } from './activity-repo.js';

const MINUTES = 60;
const MINUTE_MS = 60_000;
const STATUSES = ['approved', 'declined', 'manual_review'] as const;
type DecisionStatus = (typeof STATUSES)[number];

interface MinuteOfActivity {
  /** The start of the minute. */
  at: string;
  deliveries: { delivered: number; failed: number };
  decisions: Record<DecisionStatus, number>;
  /** Jobs waiting or running at the end of the minute (the last one: now), by lane. */
  queued: Record<LaneName, number>;
}

const laneOf = (queue: string): LaneName => (isJobName(queue) ? JOB_KINDS[queue].lane : 'housekeeping');
const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/**
 * The operator console's Overview (README, "Consoles"): the last hour per minute, the current
 * minute last. Read from the database rather than this process's metrics: the tables hold what
 * every instance did, and outlive a restart, which counters in one process's memory do not.
 */
export function createActivityReport(db: Db, clock: Clock) {
  const identity = createIdentityOperatorReads(db);
  return {
    async lastHour(): Promise<{ from: string; to: string; minutes: MinuteOfActivity[] }> {
      const now = clock.now();
      const firstMinute = Math.floor(now.getTime() / MINUTE_MS) - (MINUTES - 1);
      const window = { from: new Date(firstMinute * MINUTE_MS), to: new Date((firstMinute + MINUTES) * MINUTE_MS), now };
      const [attempts, decisions, queued] = await Promise.all([
        attemptsPerMinute(db, window),
        identity.decisionsPerMinute(window),
        queuedPerMinute(db, window, MINUTES),
      ]);
      const minutes: MinuteOfActivity[] = Array.from({ length: MINUTES }, (_, i) => ({
        at: new Date((firstMinute + i) * MINUTE_MS).toISOString(),
        deliveries: { delivered: 0, failed: 0 },
        decisions: zeros(STATUSES),
        queued: zeros(LANES),
      }));
      const slot = (minute: number) => minutes[Number(minute) - firstMinute];
      for (const row of attempts) {
        const m = slot(row.minute);
        if (m) m.deliveries = { delivered: Number(row.delivered), failed: Number(row.failed) };
      }
      for (const row of decisions) {
        const m = slot(row.minute);
        if (m && (STATUSES as readonly string[]).includes(row.status)) m.decisions[row.status as DecisionStatus] += Number(row.n);
      }
      for (const row of queued) {
        const m = minutes[Number(row.i)];
        if (m) m.queued[laneOf(row.queue)] += Number(row.n);
      }
      return { from: window.from.toISOString(), to: window.to.toISOString(), minutes };
    },
  };
}
