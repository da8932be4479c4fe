import { sql } from 'drizzle-orm';

/**
 * SQL for counts per minute over a window (the operator's last hour, GET /admin/v1/activity).
 * Minutes are counted from the Unix epoch, so no time zone setting of the session can shift them.
 */

export interface MinuteWindow {
  from: Date;
  to: Date;
  /** Capped at `to`: the last minute's queue depth is the depth now. */
  now: Date;
}

/** A point in time as a timestamptz parameter. */
export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** The minute since the Unix epoch of a timestamptz column. */
export const minuteOf = (column: string) => sql.raw(`floor(extract(epoch from ${column}) / 60)::int`);
