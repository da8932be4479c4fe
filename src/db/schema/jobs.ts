import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './core.js';

/**
 * Durable work: a row is claimed with FOR UPDATE SKIP LOCKED under a lease, so two
 * processes never run the same job at once and a job whose process died is taken again
 * once its lease runs out.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queue: text('queue').notNull(),
    payload: jsonb('payload').notNull(),
    state: text('state', { enum: ['pending', 'running', 'done', 'failed'] }).notNull(),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /**
     * What the job talks to (a webhook endpoint): at most a lane's per-key limit of jobs with
     * one key run at once, and a key that keeps failing is paused (job_key_pauses).
     */
    concurrencyKey: text('concurrency_key'),
    /**
     * The W3C traceparent of the span that queued the job, when tracing is on: the job's span is
     * its child, so the work shows under the request that caused it (docs/operations.md, "Traces").
     */
    traceParent: text('trace_parent'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    // The claim reads only live rows; done and failed jobs pile up without slowing it. No index
    // covers every row: each one would take an entry at every claim and every end.
    index('jobs_pending_idx')
      .on(t.queue, t.runAt)
      .where(sql`state = 'pending'`),
    index('jobs_running_idx')
      .on(t.concurrencyKey, t.lockedUntil)
      .where(sql`state = 'running'`),
    // The purge of finished jobs (src/jobs/purge.ts) reads them oldest first: one entry per job, at its end.
    index('jobs_finished_idx')
      .on(t.updatedAt)
      .where(sql`state in ('done', 'failed')`),
  ],
);

/**
 * Back-off per concurrency key: after consecutive unanswered attempts a key is skipped by the
 * claim until paused_until, so its due jobs wait in the table instead of holding slots.
 */
export const jobKeyPauses = pgTable('job_key_pauses', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  pausedUntil: ts('paused_until'),
  updatedAt: ts('updated_at').notNull(),
});
