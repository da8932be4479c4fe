import type { Db } from '../db/client.js';
import { isJobName, JOB_KINDS, LANES, type LaneName } from '../jobs/kinds.js';
import type { Clock } from '../lib/clock.js';
import type { IdentityServices } from '../identity/assembly.js';
import { attemptsPerMinute, failingTargets, queuedPerMinute } from './activity-repo.js';

const MINUTES = 60;
const MINUTE_MS = 60_000;
/** The ranges the Overview offers, and the minutes one bar (of sixty) covers in each. */
export const ACTIVITY_RANGES = { '1h': 1, '6h': 6, '24h': 24 } as const;
export type ActivityRange = keyof typeof ACTIVITY_RANGES;
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
 * The operator console's Overview (docs/consoles.md, "Consoles"): the last hour per minute, the current
 * minute last. Read from the database rather than this process's metrics: the tables hold what
 * every instance did, and outlive a restart, which counters in one process's memory do not.
 */
export function createActivityReport(db: Db, clock: Clock, identity: IdentityServices['reads']) {
  return {
    /**
     * The last `range` in sixty counts, the current one last, of one profile when `profileId` is
     * given (its deliveries and decisions; the queue is the deployment's: jobs belong to no
     * profile), with the webhook targets failing now.
     */
    async lastHour({ range = '1h', profileId }: { range?: ActivityRange; profileId?: string | undefined } = {}) {
      const bucketMinutes = ACTIVITY_RANGES[range];
      const bucketMs = bucketMinutes * MINUTE_MS;
      const now = clock.now();
      const firstBucket = Math.floor(now.getTime() / bucketMs) - (MINUTES - 1);
      const window = {
        from: new Date(firstBucket * bucketMs),
        to: new Date((firstBucket + MINUTES) * bucketMs),
        now,
        bucketMinutes,
        profileId,
      };
      const [attempts, decisions, queued, failing] = await Promise.all([
        attemptsPerMinute(db, window),
        identity.decisionsPerMinute(window),
        queuedPerMinute(db, window, MINUTES),
        failingTargets(db, window),
      ]);
      const minutes: MinuteOfActivity[] = Array.from({ length: MINUTES }, (_, i) => ({
        at: new Date((firstBucket + i) * bucketMs).toISOString(),
        deliveries: { delivered: 0, failed: 0 },
        decisions: zeros(STATUSES),
        queued: zeros(LANES),
      }));
      const slot = (bucket: number) => minutes[Number(bucket) - firstBucket];
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
      return {
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        bucket_minutes: bucketMinutes,
        minutes,
        failing: failing.map((f) => ({
          url: f.url,
          endpoint_id: f.endpoint_id,
          profile_id: f.profile_id,
          failed: Number(f.failed),
          last_at: new Date(f.last_at).toISOString(),
          last_status_code: f.last_status_code === null ? null : Number(f.last_status_code),
          last_error: f.last_error,
          last_delivery_id: f.last_delivery_id,
        })),
      };
    },
  };
}
