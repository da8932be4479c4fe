import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../db/client.js';
import { recordSet, type SqlValue } from '../db/record-set.js';
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
  /** The W3C traceparent of the span that queued it (tracing on), or null. */
  traceParent: string | null;
}

interface NewJob {
  queue: string;
  payload: unknown;
  runAt: Date;
  key: string | null;
  now: Date;
  traceParent?: string | null;
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
      traceParent: job.traceParent ?? null,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .returning({ id: jobs.id });
  if (!row) throw new Error('the job insert returned no row');
  return row.id;
}

/**
 * Adds the job unless one of the same queue, key and payload is pending already (then answers
 * that one's id): work that always takes the newest state when it runs, such as a witness
 * submission, needs one waiting job, not one per change. Two callers at once may both add one;
 * the second run then finds nothing new.
 */
export async function insertJobUnlessPending(db: DbOrTx, job: NewJob): Promise<string> {
  const payload = JSON.stringify(job.payload);
  const result = await db.execute(sql`
    with waiting as (
      select id from jobs
      where queue = ${job.queue} and state = 'pending' and concurrency_key is not distinct from ${job.key}
        and payload = ${payload}::jsonb
      limit 1),
    added as (
      insert into jobs (queue, payload, state, run_at, concurrency_key, trace_parent, created_at, updated_at)
      select ${job.queue}, ${payload}::jsonb, 'pending', ${iso(job.runAt)}, ${job.key}, ${job.traceParent ?? null}, ${iso(job.now)}, ${iso(job.now)}
      where not exists (select 1 from waiting)
      returning id)
    select id from added union all select id from waiting`);
  const [row] = rowsOf<{ id: string }>(result);
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
const due = (now: Date, table = sql``): SQL =>
  sql`((${table}state = 'pending' and ${table}run_at <= ${iso(now)}) or (${table}state = 'running' and ${table}locked_until < ${iso(now)}))`;

/**
 * Up to `limit` due jobs of the queues, oldest run_at first, that pass `keyFilter`. The two kinds
 * of due row are read apart, each from its partial index in run_at order (jobs_pending_idx,
 * jobs_running_idx), so the scan stops at the limit: one `or` over both made PostgreSQL read and
 * sort every live row of the table at each claim, which with thousands of queued deliveries cost
 * more than the deliveries (bench/webhooks.ts; docs/operations.md, Operations).
 */
function dueCandidates(queues: SQL, now: Date, limit: number, keyFilter: SQL): SQL {
  return sql`select id, concurrency_key, run_at from (
      (select id, concurrency_key, run_at from jobs
        where state = 'pending' and queue in (${queues}) and run_at <= ${iso(now)} and ${keyFilter}
        order by run_at limit ${limit})
      union all
      (select id, concurrency_key, run_at from jobs
        where state = 'running' and locked_until < ${iso(now)} and queue in (${queues}) and ${keyFilter}
        order by run_at limit ${limit})) due_rows
    order by run_at limit ${limit}`;
}

interface ClaimRequest {
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
    picked = sql`select id from jobs where id in (select id from (${dueCandidates(queues, r.now, r.limit, sql`true`)}) c)
      and ${due(r.now)} order by run_at limit ${r.limit} for update skip locked`;
  } else {
    // Keys at their limit or paused are skipped before the limit applies, so a dead endpoint
    // with thousands of due jobs cannot fill the candidates; within the candidates, each key
    // gets only the slots it has left. Locking happens last (no window functions under FOR
    // UPDATE), and the due condition is repeated there so a row another process claimed in
    // the meantime is re-checked and skipped.
    const cap = r.perKeyLimit;
    const open = sql`(concurrency_key is null or concurrency_key not in (select key from blocked))`;
    picked = sql`with busy as (
        select concurrency_key as key, count(*) as n from jobs
        where state = 'running' and locked_until >= ${iso(r.now)} and concurrency_key is not null
        group by concurrency_key),
      blocked as (
        select key from busy where n >= ${cap}
        union select key from job_key_pauses where paused_until > ${iso(r.now)}),
      candidates as (${dueCandidates(queues, r.now, r.limit * 4, open)}),
      ranked as materialized (
        select c.id, c.concurrency_key,
          coalesce(b.n, 0) + row_number() over (partition by c.concurrency_key order by c.run_at) as nth
        from candidates c left join busy b on b.key = c.concurrency_key)
      select j.id from jobs j join ranked r on r.id = j.id
      where (r.concurrency_key is null or r.nth <= ${cap}) and ${due(r.now, sql`j.`)}
      order by j.run_at limit ${r.limit} for update of j skip locked`;
  }
  // Planned at each run, not prepared: a prepared claim's generic plan, chosen while the queue
  // was small, kept nested-looping over thousands of rows later (measured in bench/webhooks.ts:
  // 185 deliveries/s prepared against 787/s planned per run, 8,000 queued).
  const result = await db.execute(
    sql`update jobs set state = 'running', attempts = attempts + 1, locked_until = ${iso(r.lockedUntil)}, updated_at = ${iso(r.now)}
      where id in (${picked})
      returning id, queue, payload, attempts, concurrency_key, trace_parent, to_char(run_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as due`,
  );
  // RETURNING has no order: the runner starts them oldest first, as they were picked.
  return rowsOf<{
    id: string;
    queue: string;
    payload: unknown;
    attempts: number;
    concurrency_key: string | null;
    trace_parent: string | null;
    due: string;
  }>(result)
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0))
    .map((row) => ({
      id: row.id,
      queue: row.queue,
      payload: row.payload,
      attempts: row.attempts,
      key: row.concurrency_key,
      traceParent: row.trace_parent,
    }));
}

/**
 * A kind of bookkeeping a job's handler asks for with its end (JobOutcome.writes): one
 * data-modifying statement over a set of rows. The writes of one kind from all the ends written
 * together become one statement over all their rows, so a shared end statement costs PostgreSQL
 * the same planning however many ends it carries.
 */
export interface WriteKind {
  /** Unique among kinds: names the statement's CTE. */
  name: string;
  /** The rows' columns with their types: `delivery_id uuid, attempt int`. */
  columns: string;
  /**
   * The statement, given the rows as a FROM item named `r`; without a WITH of its own, and
   * changing one row of its table per row of `r`, the row named by `target`.
   */
  statement: (rows: SQL) => SQL;
  /** The table the statement changes, and the columns of `r` that name the row it changes there. */
  target: { table: string; columns: string[] };
  /**
   * Two rows naming one target may share a statement: each sets the same values whatever came
   * before (a reset), so applying one is applying both. Otherwise (a count, a state with its
   * answer) they go to statements one after the other, in the order their jobs ended.
   */
  repeatable?: boolean;
}

type WriteValue = SqlValue;

/** One row of a kind of write. */
export interface JobWrite {
  kind: WriteKind;
  row: Record<string, WriteValue>;
}

export interface JobEnd {
  state: 'pending' | 'done' | 'failed';
  /** The next run, for a job back to pending. */
  runAt?: Date;
  lastError: string | null;
  /** The thing behind the job's key did not answer: counts towards pausing the key. */
  keyFailed: boolean;
  /** The handler's own writes, committed in the same statement (see JobOutcome.writes). */
  writes: JobWrite[];
  now: Date;
}

/** What an end changes beside its job's row: a target row, and whether rows of it may repeat in one statement. */
interface Touch {
  target: string;
  repeatable: boolean;
}

function touchesOf(job: Pick<ClaimedJob, 'key'>, end: Pick<JobEnd, 'keyFailed' | 'writes'>): Touch[] {
  const touches = end.writes.map(({ kind, row }) => ({
    target: JSON.stringify([kind.target.table, ...kind.target.columns.map((column) => row[column] ?? null)]),
    repeatable: kind.repeatable === true,
  }));
  // An answer resets the key's health (repeatable); a failure to answer counts one more (not).
  if (job.key !== null) touches.push({ target: JSON.stringify(['job_key_pauses', job.key]), repeatable: !end.keyFailed });
  return touches;
}

/**
 * Splits job ends into rounds that finishJobs can write each in one statement, in order: one
 * statement changes each row once (PostgreSQL keeps one of two changes of a row, or refuses an
 * upsert that meets its row twice), so two ends that change one row go to rounds one after the
 * other unless both changes are repeatable. Ends of one key that all got their answers — what
 * a busy endpoint's deliveries do — share a round. Answers the indexes of `ends`, round by round.
 */
export function roundsOfEnds(ends: { job: Pick<ClaimedJob, 'key'>; end: Pick<JobEnd, 'keyFailed' | 'writes'> }[]): number[][] {
  const rounds: number[][] = [];
  /** Per target, the last round that changes it, and whether a change there is not repeatable. */
  const last = new Map<string, { round: number; repeatable: boolean }>();
  ends.forEach(({ job, end }, i) => {
    const touches = touchesOf(job, end);
    let round = 0;
    for (const { target, repeatable } of touches) {
      const seen = last.get(target);
      if (seen) round = Math.max(round, seen.round + (seen.repeatable && repeatable ? 0 : 1));
    }
    for (const { target, repeatable } of touches) {
      const seen = last.get(target);
      last.set(target, { round, repeatable: seen?.round === round ? seen.repeatable && repeatable : repeatable });
    }
    (rounds[round] ??= []).push(i);
  });
  return rounds.filter((round) => round !== undefined);
}

/** What names one claim of a job: its id and its count of claims (see `heldBy`). */
type Claim = Pick<ClaimedJob, 'id' | 'attempts'>;

/**
 * The condition that `alias`'s job is still under the claim given by the columns `id` and
 * `attempts` of `claim`. A claim raises `attempts` and a hand-back lowers it again, so while a
 * claim lives every later claim of its job counts one more: a job another process took over
 * after this one's lease ran out is never taken for this one's, renewed or not.
 */
const heldBy = (alias: string, claim: string) =>
  sql.raw(`${alias}.id = ${claim}.id and ${alias}.state = 'running' and ${alias}.attempts = ${claim}.attempts`);

/**
 * Extends the leases of claims this process holds to `lockedUntil`, in one statement however
 * many they are; answers the ids still held. A claim not among them was lost: its lease ran out
 * and another process took the job (or it ended meanwhile).
 */
export async function renewLeases(db: Db, claims: Claim[], lockedUntil: Date): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const held = claims.map((c) => ({ id: c.id, attempts: c.attempts }));
  const result = await db.execute(sql`update jobs j set locked_until = ${iso(lockedUntil)}
    from ${recordSet(held, 'id uuid, attempts int', 'c')} where ${heldBy('j', 'c')} returning j.id`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}

/**
 * Records the ends of jobs in one statement: each job's state, the health of its key and the
 * handler's writes, so they commit together and cost one round trip. Every part is one CTE over
 * all the ends' rows, whatever their number. The ends must form one round of roundsOfEnds (the
 * runner makes sure). A job no longer under the claim that ran it (its lease ran out and another
 * process took it) is left to that process; its writes still apply, as they describe work that
 * was done. Answers the ids whose end was written.
 */
export async function finishJobs(db: Db, ends: { job: Pick<ClaimedJob, 'id' | 'key' | 'attempts'>; end: JobEnd }[]): Promise<Set<string>> {
  if (ends.length === 0) return new Set();
  const finished = ends.map(({ job, end }) => ({
    id: job.id,
    attempts: job.attempts,
    state: end.state,
    last_error: end.lastError,
    run_at: end.runAt ? iso(end.runAt) : null,
    now: iso(end.now),
  }));
  const ctes = [
    sql`finished as (update jobs j set state = e.state, last_error = e.last_error, locked_until = null,
      updated_at = e.now, run_at = coalesce(e.run_at, j.run_at)
      from ${recordSet(finished, 'id uuid, attempts int, state text, last_error text, run_at timestamptz, now timestamptz', 'e')}
      where ${heldBy('j', 'e')} returning j.id)`,
  ];
  const answered = ends.filter(({ job, end }) => job.key !== null && !end.keyFailed).map(({ job }) => job.key!);
  if (answered.length > 0)
    ctes.push(sql`answered as (delete from job_key_pauses where key = any(${sql.param([...new Set(answered)])}::text[]))`);
  const unanswered = ends
    .filter(({ job, end }) => job.key !== null && end.keyFailed)
    .map(({ job, end }) => ({
      key: job.key!,
      now: iso(end.now),
      first_pause: keyPauseMs(1) > 0 ? iso(new Date(end.now.getTime() + keyPauseMs(1))) : null,
    }));
  if (unanswered.length > 0) {
    ctes.push(sql`unanswered as (insert into job_key_pauses (key, failures, paused_until, updated_at)
      select u.key, 1, u.first_pause, u.now from ${recordSet(unanswered, 'key text, now timestamptz, first_pause timestamptz', 'u')}
      on conflict (key) do update set failures = job_key_pauses.failures + 1,
        paused_until = case when job_key_pauses.failures + 1 >= ${KEY_PAUSE_AFTER_FAILURES}
          then excluded.updated_at + make_interval(secs => least(
            power(2, job_key_pauses.failures + 1 - ${KEY_PAUSE_AFTER_FAILURES}), ${KEY_PAUSE_MAX_MS / 1000}))
          else null end,
        updated_at = excluded.updated_at)`);
  }
  const byKind = new Map<WriteKind, Record<string, WriteValue>[]>();
  for (const { end } of ends) {
    for (const { kind, row } of end.writes) {
      const rows = byKind.get(kind);
      if (rows) rows.push(row);
      else byKind.set(kind, [row]);
    }
  }
  for (const [kind, rows] of byKind) {
    ctes.push(sql`${sql.raw(`write_${kind.name}`)} as (${kind.statement(recordSet(rows, kind.columns))})`);
  }
  const result = await db.execute(sql`with ${sql.join(ctes, sql`, `)} select id from finished`);
  return new Set(rowsOf<{ id: string }>(result).map((row) => row.id));
}

/**
 * Hands claimed jobs back unrun: pending again, their claim uncounted. Only a job still under
 * the lease this process took is touched (another process may have taken it since).
 */
export async function releaseJobs(db: Db, claimed: { id: string; lockedUntil: Date }[], now: Date): Promise<void> {
  if (claimed.length === 0) return;
  await db.execute(sql`update jobs set state = 'pending', attempts = attempts - 1, locked_until = null, updated_at = ${iso(now)}
    where state = 'running' and (id, locked_until) in (
      select * from unnest(${sql.param(claimed.map((c) => c.id))}::uuid[], ${sql.param(claimed.map((c) => iso(c.lockedUntil)))}::timestamptz[]))`);
}

/**
 * A job whose handler threw: back to pending at `runAt`, the error kept for the operator. Only
 * while `claim` still holds it (as finishJobs); false otherwise.
 */
export async function rescheduleAfterError(db: Db, claim: Claim, runAt: Date, error: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ state: 'pending', runAt, lastError: error, lockedUntil: null, updatedAt: now })
    .where(and(eq(jobs.id, claim.id), eq(jobs.state, 'running'), eq(jobs.attempts, claim.attempts)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/**
 * Deletes up to `limit` jobs that ended (done or failed) before `before`, oldest first, through
 * jobs_finished_idx; answers how many. Pending and running jobs are never touched.
 */
export async function purgeFinishedJobs(db: Db, before: Date, limit: number): Promise<number> {
  const gone = await db.execute(sql`delete from jobs where id in (
      select id from jobs where state in ('done', 'failed') and updated_at < ${iso(before)} order by updated_at limit ${limit})
    returning 1`);
  return rowsOf(gone).length;
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
