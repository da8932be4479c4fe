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
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [index('jobs_due_idx').on(t.state, t.runAt)],
);
