-- A delivery keeps its event's profile, so the operator's log of one profile is read newest first from
-- its own index instead of through every event of the profile (docs/benchmarks.md, "Data growth").
ALTER TABLE "webhook_deliveries" ADD COLUMN "profile_id" uuid;--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "profile_id" = e."profile_id" FROM "webhook_events" e WHERE e."id" = d."event_id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "profile_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_profile_created_idx" ON "webhook_deliveries" USING btree ("profile_id","created_at","id");
