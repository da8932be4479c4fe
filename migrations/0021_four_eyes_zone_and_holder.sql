ALTER TABLE "api_keys" ADD COLUMN "holder" text;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD COLUMN "mrz" text;