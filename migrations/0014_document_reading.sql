ALTER TABLE "identity_verifications" ADD COLUMN "mrz_source" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "mrz_read" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_back_blob" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_back_sha256" text;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_back_width" integer;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_back_height" integer;--> statement-breakpoint
-- Hand-written: a zone stored before document reading existed was typed by the device.
UPDATE "identity_verifications" SET "mrz_source" = 'typed' WHERE "mrz" IS NOT NULL;
