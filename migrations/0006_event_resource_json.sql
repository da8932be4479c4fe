-- Hand-written (drizzle-kit generated only the column, NOT NULL at once, which existing rows
-- cannot satisfy). Each event keeps its resource JSON, exactly as the API writes it (the `data`
-- of GET /api/v1/events/{id}; test/ticketing/event-list.test.ts holds it to the server's own
-- eventView), written by a trigger whenever the row is inserted or changed. Pages and single
-- reads then send stored text: formatting the four times of 100 rows at every page read was most
-- of the page's cost in PostgreSQL (README, Speed). Keys are in the API's order, times in UTC
-- with milliseconds, as eventView writes them.
ALTER TABLE "ticketing_events" ADD COLUMN "resource_json" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ticketing_event_resource_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW."resource_json" := json_build_object(
		'id', NEW."id", 'name', NEW."name", 'description', NEW."description", 'status', NEW."status",
		'startsAt', to_char(NEW."starts_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'endsAt', to_char(NEW."ends_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'timezone', NEW."timezone", 'allDay', NEW."all_day", 'address', NEW."address", 'city', NEW."city",
		'placeId', NEW."place_id", 'ticketMode', NEW."ticket_mode", 'imageUrl', NEW."image_url",
		'createdAt', to_char(NEW."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
		'updatedAt', to_char(NEW."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticketing_events_resource" BEFORE INSERT OR UPDATE ON "ticketing_events"
	FOR EACH ROW EXECUTE FUNCTION "ticketing_event_resource_apply"();--> statement-breakpoint
UPDATE "ticketing_events" SET "resource_json" = NULL;--> statement-breakpoint
ALTER TABLE "ticketing_events" ALTER COLUMN "resource_json" SET NOT NULL;
