ALTER TABLE "ticketing_event_counts" ADD COLUMN "changes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle-kit does not generate functions). The counters also count changes: every
-- row a statement inserts, updates or deletes adds to `changes` of its (profile, status, shard),
-- an update on its old and its new status, so the sum of a profile's `changes` (or of one
-- status's) moves with every committed change to the events a page lists, whoever makes it. An
-- update that keeps the status now writes its counter row too (before, only a change of status
-- did). Rows are still upserted in key order, so writers cannot deadlock on them.
CREATE OR REPLACE FUNCTION "ticketing_event_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "shard", "n", "changes")
		SELECT "profile_id", "status", hashtext("id"::text) & 15, count(*)::integer, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT ("profile_id", "status", "shard") DO UPDATE
		SET "n" = "ticketing_event_counts"."n" + excluded."n", "changes" = "ticketing_event_counts"."changes" + excluded."changes";
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "shard", "n", "changes")
		SELECT "profile_id", "status", "shard", sum(d)::integer, count(*) FROM (
			SELECT "profile_id", "status", hashtext("id"::text) & 15 AS "shard", -1 AS d FROM old_rows
			UNION ALL
			SELECT "profile_id", "status", hashtext("id"::text) & 15 AS "shard", 1 AS d FROM new_rows
		) AS changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT ("profile_id", "status", "shard") DO UPDATE
		SET "n" = "ticketing_event_counts"."n" + excluded."n", "changes" = "ticketing_event_counts"."changes" + excluded."changes";
	ELSE
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "shard", "n", "changes")
		SELECT "profile_id", "status", hashtext("id"::text) & 15, -count(*)::integer, count(*) FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
		ON CONFLICT ("profile_id", "status", "shard") DO UPDATE
		SET "n" = "ticketing_event_counts"."n" + excluded."n", "changes" = "ticketing_event_counts"."changes" + excluded."changes";
	END IF;
	RETURN NULL;
END
$$;
