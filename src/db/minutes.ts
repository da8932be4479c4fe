import { sql } from 'drizzle-orm';

/**
 * SQL for counts per minute over a window (the operator's last hour, GET /admin/v1/activity).
 * Minutes are counted from the Unix epoch, so no time zone setting of the session can shift them.
 */

export interface MinuteWindow {
  from: Date;
  to: Date;
  /** The length of one count in minutes (1 unless said): a day reads as 60 counts of 24 minutes. */
  bucketMinutes?: number;
  /** Only this profile's activity, where a table can tell (deliveries through their event, decisions through their verification). */
  profileId?: string | undefined;
  /** Capped at `to`: the last minute's queue depth is the depth now. */
  now: Date;
}

/** A point in time as a timestamptz parameter. */
export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The minute since the Unix epoch of a timestamptz column. */
export const minuteOf = (column: string) => sql.raw(`floor(extract(epoch from ${column}) / 60)::int`);

/** The bucket since the Unix epoch of a timestamptz column, in buckets of the window's length (minutes by default). */
export const bucketOf = (column: string, w: Pick<MinuteWindow, 'bucketMinutes'>) =>
  sql.raw(`floor(extract(epoch from ${column}) / ${60 * Math.max(1, Math.floor(w.bucketMinutes ?? 1))})::int`);
