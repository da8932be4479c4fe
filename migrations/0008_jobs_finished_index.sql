-- The hourly purge of finished jobs (src/jobs/purge.ts) deletes them oldest first in batches;
-- without an index each batch would read the whole table. Partial: only a job's end adds an entry.
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("updated_at") WHERE state in ('done', 'failed');
