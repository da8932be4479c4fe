ALTER TABLE "idempotency_keys" ADD COLUMN "subject" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_subject_idx" ON "idempotency_keys" USING btree ("subject");