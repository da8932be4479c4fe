CREATE TABLE "job_key_pauses" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"paused_until" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "concurrency_key" text;--> statement-breakpoint
CREATE INDEX "jobs_pending_idx" ON "jobs" USING btree ("queue","run_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("concurrency_key","locked_until") WHERE state = 'running';--> statement-breakpoint
-- Hand-written: wakes the job runners when new work commits. NOTIFY is delivered only at
-- commit (a rolled-back job wakes nobody), and identical notifications of one transaction
-- are folded into one, so a bulk insert wakes each listener once per queue.
CREATE FUNCTION "jobs_notify_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('jobs_added', NEW."queue");
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "jobs_added" AFTER INSERT ON "jobs" FOR EACH ROW EXECUTE FUNCTION "jobs_notify_added"();
