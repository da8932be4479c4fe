ALTER TABLE "profiles" ADD COLUMN "review_policy" text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD COLUMN "ordinal" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "subject" text;--> statement-breakpoint
CREATE INDEX "idempotency_keys_subject_idx" ON "idempotency_keys" USING btree ("subject");