ALTER TABLE "jobs" ADD COLUMN "trace_parent" text;--> statement-breakpoint
CREATE INDEX "webhook_attempts_started_brin" ON "webhook_attempts" USING brin ("started_at");--> statement-breakpoint
CREATE INDEX "identity_audit_events_created_brin" ON "identity_audit_events" USING brin ("created_at");