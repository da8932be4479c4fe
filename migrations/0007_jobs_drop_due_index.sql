-- Nothing reads jobs_due_idx since the claim reads its two kinds of due row from the partial
-- indexes jobs_pending_idx and jobs_running_idx (0003). It covered every row, done ones
-- included, so every job's insert, claim and end still paid an entry in it.
DROP INDEX "jobs_due_idx";
