-- Each webhook attempt keeps the start of the receiver's answer body (src/webhooks/response-excerpt.ts:
-- its first 1 KiB as text, at most 1,024 characters), shown in the operator's delivery detail.
-- Attempts made before keep none (null, not truncated).
ALTER TABLE "webhook_attempts" ADD COLUMN "response_body" text;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "response_body_truncated" boolean DEFAULT false NOT NULL;
