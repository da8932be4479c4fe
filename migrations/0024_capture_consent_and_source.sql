ALTER TABLE "profiles" ADD COLUMN "privacy_policy_url" text;--> statement-breakpoint
ALTER TABLE "identity_frames" ADD COLUMN "source" text DEFAULT 'camera' NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "consent_declined_at" timestamp (3) with time zone;