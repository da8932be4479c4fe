import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client.js';
import { at, bucketOf, type MinuteWindow } from '../db/minutes.js';
import { isUuid } from '../lib/uuid.js';

/**
 * The reads behind the operator's last hour (GET /admin/v1/activity) of the shared mechanisms'
 * tables, which every instance writes, so any instance answers for all of them and a restart
 * forgets nothing. Identity's decisions come from identity's own service.
 */

/** A profile's deliveries (its identity decision webhooks included: each delivery keeps its event's profile); every delivery without one. */
function deliveriesOf(w: MinuteWindow) {
  return w.profileId ? sql`and a.delivery_id in (select d.id from webhook_deliveries d where d.profile_id = ${w.profileId})` : sql``;
}

/** An attempt's failure: an error, a timeout or a status other than 2xx. */
const FAILED = sql.raw(
  `((a.status_code is not null and a.status_code not between 200 and 299) or (a.status_code is null and a.error is not null))`,
);

/** Finished attempts started in the window, per bucket: 2xx answers, and the rest (errors, timeouts, other statuses). */
export async function attemptsPerMinute(db: DbOrTx, w: MinuteWindow) {
  if (w.profileId !== undefined && !isUuid(w.profileId)) return [];
  const result = await db.execute(sql`
    select ${bucketOf('a.started_at', w)} as minute,
      count(*) filter (where a.status_code between 200 and 299)::int as delivered,
      count(*) filter (where ${FAILED})::int as failed
    from webhook_attempts a
    where a.started_at >= ${at(w.from)} and a.started_at < ${at(w.to)} ${deliveriesOf(w)}
    group by 1`);
  return rowsOf<{ minute: number; delivered: number; failed: number }>(result);
}

/**
 * The targets failing now: for each address (an endpoint, or a verification's own webhook_url)
 * whose latest attempt in the window failed, how many attempts failed there in the window, when
 * the last one was, and what it met. The Overview names them so a count of failures comes with
 * where to look (docs/consoles.md, "Consoles").
 */
export async function failingTargets(db: DbOrTx, w: MinuteWindow) {
  if (w.profileId !== undefined && !isUuid(w.profileId)) return [];
  const result = await db.execute(sql`
    select d.url as url, d.endpoint_id as endpoint_id, d.profile_id as profile_id,
      count(*) filter (where ${FAILED})::int as failed,
      max(a.started_at) as last_at,
      (array_agg(a.status_code order by a.started_at desc, a.attempt desc))[1] as last_status_code,
      (array_agg(a.error order by a.started_at desc, a.attempt desc))[1] as last_error,
      (array_agg(d.id order by a.started_at desc, a.attempt desc))[1] as last_delivery_id
    from webhook_attempts a
    join webhook_deliveries d on d.id = a.delivery_id
    where a.started_at >= ${at(w.from)} and a.started_at < ${at(w.to)} ${deliveriesOf(w)}
    group by d.url, d.endpoint_id, d.profile_id
    having (array_agg(${FAILED} order by a.started_at desc, a.attempt desc))[1]
    order by failed desc, url
    limit 20`);
  return rowsOf<{
    url: string;
    endpoint_id: string | null;
    profile_id: string;
    failed: number;
    last_at: string | Date;
    last_status_code: number | null;
    last_error: string | null;
    last_delivery_id: string;
  }>(result);
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
      select i, least(${at(w.from)} + (i + 1) * ${`${w.bucketMinutes ?? 1} minutes`}::interval, ${at(w.now)}) as at
      from generate_series(0, ${minutes - 1}) as i)
    select ends.i as i, live.queue as queue, count(*)::int as n
    from ends join live on live.created_at <= ends.at and (live.ended is null or live.ended > ends.at)
    group by 1, 2`);
  return rowsOf<{ i: number; queue: string; n: number }>(result);
}
