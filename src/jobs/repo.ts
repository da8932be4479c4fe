import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { jobs } from '../db/schema/jobs.js';

/** Unanswered jobs of one key in a row before the key is paused, and the longest pause. */
export const KEY_PAUSE_AFTER_FAILURES = 3;
export const KEY_PAUSE_MAX_MS = 300_000;

/** Milliseconds a key is paused after `failures` unanswered jobs in a row: 1 s, 2 s, 4 s … 5 min. */
export function keyPauseMs(failures: number): number {
  if (failures < KEY_PAUSE_AFTER_FAILURES) return 0;
  return Math.min(1000 * 2 ** (failures - KEY_PAUSE_AFTER_FAILURES), KEY_PAUSE_MAX_MS);
}

const iso = (d: Date) => d.toISOString();

/** A job this process now runs under a lease. */
export interface ClaimedJob {
  id: string;
  queue: string;
  payload: unknown;
  /** Claims so far, this one included. */
  attempts: number;
  key: string | null;
}

export interface NewJob {
  queue: string;
  payload: unknown;
  runAt: Date;
  key: string | null;
  now: Date;
}

export async function insertJob(db: DbOrTx, job: NewJob): Promise<string> {
  const [row] = await db
    .insert(jobs)
    .values({
      queue: job.queue,
      payload: job.payload,
      state: 'pending',
      runAt: job.runAt,
      concurrencyKey: job.key,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .returning({ id: jobs.id });
  if (!row) throw new Error('the job insert returned no row');
  return row.id;
}

/** Inserts the one job of a fixed id (a periodic housekeeping job) unless it exists already. */
export async function ensureSingletonJob(db: DbOrTx, job: Omit<NewJob, 'key'> & { id: string }): Promise<void> {
  await db
    .insert(jobs)
    .values({
      id: job.id,
      queue: job.queue,
      payload: job.payload,
      state: 'pending',
      runAt: job.runAt,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .onConflictDoNothing();
}

/** Rows due at `now`: pending and past their run time, or running under a lease that ran out. */
const due = (now: Date): SQL => sql`((state = 'pending' and run_at <= ${iso(now)}) or (state = 'running' and locked_until < ${iso(now)}))`;

export interface ClaimRequest {
  queues: string[];
  limit: number;
  now: Date;
  lockedUntil: Date;
  /** Jobs with one concurrency key running at once, all processes together; no limit when absent. */
  perKeyLimit?: number;
}

/** Takes up to `limit` due jobs of the queues under a lease, in one statement. */
export async function claimDue(db: Db, r: ClaimRequest): Promise<ClaimedJob[]> {
  const queues = sql.join(
    r.queues.map((q) => sql`${q}`),
    sql`, `,
  );
  let picked: SQL;
  if (r.perKeyLimit === undefined) {
    picked = sql`select id from jobs where queue in (${queues}) and ${due(r.now)}
      order by run_at limit ${r.limit} for update skip locked`;
  } else {
    // Keys at their limit or paused are skipped before the limit applies, so a dead endpoint
    // with thousands of due jobs cannot fill the candidates; within the candidates, each key
    // gets only the slots it has left. Locking happens last (no window functions under FOR
    // UPDATE), and the due condition is repeated there so a row another process claimed in
    // the meantime is re-checked and skipped.
    const cap = r.perKeyLimit;
    picked = sql`with busy as (
        select concurrency_key as key, count(*) as n from jobs
        where state = 'running' and locked_until >= ${iso(r.now)} and concurrency_key is not null
        group by concurrency_key),
      candidates as (
        select id, concurrency_key, run_at from jobs
        where queue in (${queues}) and ${due(r.now)}
          and (concurrency_key is null or (
            concurrency_key not in (select key from busy where n >= ${cap})
            and concurrency_key not in (select key from job_key_pauses where paused_until > ${iso(r.now)})))
        order by run_at limit ${r.limit * 4}),
      ranked as (
        select c.id, c.run_at, c.concurrency_key,
          coalesce(b.n, 0) + row_number() over (partition by c.concurrency_key order by c.run_at) as nth
        from candidates c left join busy b on b.key = c.concurrency_key)
      select id from jobs
      where id in (select id from ranked where concurrency_key is null or nth <= ${cap}) and ${due(r.now)}
      order by run_at limit ${r.limit} for update skip locked`;
  }
  return db
    .update(jobs)
    .set({ state: 'running', attempts: sql`${jobs.attempts} + 1`, lockedUntil: r.lockedUntil, updatedAt: r.now })
    .where(sql`${jobs.id} in (${picked})`)
    .returning({ id: jobs.id, queue: jobs.queue, payload: jobs.payload, attempts: jobs.attempts, key: jobs.concurrencyKey });
}

export interface JobEnd {
  state: 'pending' | 'done' | 'failed';
  /** The next run, for a job back to pending. */
  runAt?: Date;
  lastError: string | null;
  /** The thing behind the job's key did not answer: counts towards pausing the key. */
  keyFailed: boolean;
  /** The handler's own writes, committed in the same statement (see JobOutcome.writes). */
  writes: SQL[];
  now: Date;
}

/**
 * Records a job's end in one statement: its state, the health of its key and the handler's
 * writes, so they commit together and cost one round trip. A job whose lease another process
 * took over meanwhile is left as it is (its writes still apply, as they would have before).
 */
export async function finishJob(db: Db, job: Pick<ClaimedJob, 'id' | 'key'>, end: JobEnd): Promise<void> {
  const { now } = end;
  const update = sql`update jobs set state = ${end.state}, last_error = ${end.lastError}, locked_until = null,
    updated_at = ${iso(now)}${end.runAt ? sql`, run_at = ${iso(end.runAt)}` : sql``}
    where id = ${job.id} and state = 'running'`;
  const ctes: SQL[] = [];
  if (job.key !== null) {
    ctes.push(
      end.keyFailed
        ? sql`key_health as (insert into job_key_pauses (key, failures, paused_until, updated_at)
            values (${job.key}, 1, ${keyPauseMs(1) > 0 ? iso(new Date(now.getTime() + keyPauseMs(1))) : null}, ${iso(now)})
            on conflict (key) do update set failures = job_key_pauses.failures + 1,
              paused_until = case when job_key_pauses.failures + 1 >= ${KEY_PAUSE_AFTER_FAILURES}
                then ${iso(now)}::timestamptz + make_interval(secs => least(
                  power(2, job_key_pauses.failures + 1 - ${KEY_PAUSE_AFTER_FAILURES}), ${KEY_PAUSE_MAX_MS / 1000}))
                else null end,
              updated_at = ${iso(now)})`
        : sql`key_health as (delete from job_key_pauses where key = ${job.key})`,
    );
  }
  end.writes.forEach((write, i) => ctes.push(sql`${sql.raw(`write_${i}`)} as (${write})`));
  if (ctes.length === 0) {
    await db.execute(update);
    return;
  }
  await db.execute(sql`with finished as (${update} returning id), ${sql.join(ctes, sql`, `)} select count(*) from finished`);
}

/** A job whose handler threw: back to pending at `runAt`, the error kept for the operator. */
export async function rescheduleAfterError(db: Db, id: string, runAt: Date, error: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ state: 'pending', runAt, lastError: error, lockedUntil: null, updatedAt: now })
    .where(and(eq(jobs.id, id), eq(jobs.state, 'running')));
}

/** Moves a pending job's next run; false when the job is not pending (running, done or gone). */
export async function movePendingJob(db: DbOrTx, id: string, runAt: Date, now: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ runAt, updatedAt: now })
    .where(and(eq(jobs.id, id), eq(jobs.state, 'pending')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}
