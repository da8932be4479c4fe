-- API keys get a name (who holds the key), their last four characters and when they were last
-- used (README, "API keys"). Keys issued before keep an empty last4: only their hash is stored.
ALTER TABLE "api_keys" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last4" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp (3) with time zone;--> statement-breakpoint
-- A reviewer's decline names its reasons from a short list (README, "Consoles"), beside the note.
ALTER TABLE "identity_reviews" ADD COLUMN "decline_reasons" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- A reviewer's claim on a case in review: who holds it and until when (it lapses by itself).
ALTER TABLE "identity_verifications" ADD COLUMN "claimed_by_key_id" uuid;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "claimed_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_claimed_by_key_id_api_keys_id_fk" FOREIGN KEY ("claimed_by_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;
