import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client.js';
import { at, minuteOf, type MinuteWindow } from '../db/minutes.js';

/**
 * The reads behind the operator's last hour (GET /admin/v1/activity) of the shared mechanisms'
 * tables, which every instance writes, so any instance answers for all of them and a restart
 * forgets nothing. Identity's decisions come from identity's own service.
 */

/** Finished attempts started in the window, per minute: 2xx answers, and the rest (errors, timeouts, other statuses). */
export async function attemptsPerMinute(db: DbOrTx, w: MinuteWindow) {
  const result = await db.execute(sql`
    select ${minuteOf('started_at')} as minute,
      count(*) filter (where status_code between 200 and 299)::int as delivered,
      count(*) filter (where (status_code is not null and status_code not between 200 and 299)
        or (status_code is null and error is not null))::int as failed
    from webhook_attempts
    where started_at >= ${at(w.from)} and started_at < ${at(w.to)}
    group by 1`);
  return rowsOf<{ minute: number; delivered: number; failed: number }>(result);
}

/**
 * Jobs not yet finished at the end of each minute, per queue: a job counts from its creation
 * until it ended (done or failed; its last update). Live jobs and the jobs that ended in the window
 * are read through their partial indexes (jobs_pending_idx, jobs_running_idx, jobs_finished_idx).
 */
export async function queuedPerMinute(db: DbOrTx, w: MinuteWindow, minutes: number) {
  const result = await db.execute(sql`
    with live as (
      select queue, created_at, null::timestamptz as ended from jobs where state = 'pending' and created_at < ${at(w.to)}
      union all
      select queue, created_at, null::timestamptz from jobs where state = 'running' and created_at < ${at(w.to)}
      union all
      select queue, created_at, updated_at from jobs
        where state in ('done', 'failed') and updated_at >= ${at(w.from)} and created_at < ${at(w.to)}),
    ends as (
      select i, least(${at(w.from)} + (i + 1) * interval '1 minute', ${at(w.now)}) as at
      from generate_series(0, ${minutes - 1}) as i)
    select ends.i as i, live.queue as queue, count(*)::int as n
    from ends join live on live.created_at <= ends.at and (live.ended is null or live.ended > ends.at)
    group by 1, 2`);
  return rowsOf<{ i: number; queue: string; n: number }>(result);
}
