-- Hand-written: what drizzle-kit does not generate. Keep it in this file (not in 0000_init.sql)
-- so the generated migration can be regenerated without losing it.

-- Hand-written (drizzle-kit does not generate triggers): keep ticketing_event_counts equal to
-- count(*) of ticketing_events per (profile_id, status). Statement triggers with transition
-- tables, so a bulk insert writes each counter once; rows are upserted in key order, so
-- concurrent writers lock counters in the same order and cannot deadlock.
CREATE FUNCTION "ticketing_event_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "n")
		SELECT "profile_id", "status", count(*)::integer FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT ("profile_id", "status") DO UPDATE SET "n" = "ticketing_event_counts"."n" + excluded."n";
	ELSIF TG_OP = 'UPDATE' THEN
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "n")
		SELECT "profile_id", "status", sum(d)::integer FROM (
			SELECT "profile_id", "status", -1 AS d FROM old_rows
			UNION ALL
			SELECT "profile_id", "status", 1 AS d FROM new_rows
		) AS changes GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
		ON CONFLICT ("profile_id", "status") DO UPDATE SET "n" = "ticketing_event_counts"."n" + excluded."n";
	ELSE
		INSERT INTO "ticketing_event_counts" ("profile_id", "status", "n")
		SELECT "profile_id", "status", -count(*)::integer FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT ("profile_id", "status") DO UPDATE SET "n" = "ticketing_event_counts"."n" + excluded."n";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticketing_events_count_insert" AFTER INSERT ON "ticketing_events"
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ticketing_event_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "ticketing_events_count_update" AFTER UPDATE ON "ticketing_events"
	REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "ticketing_event_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "ticketing_events_count_delete" AFTER DELETE ON "ticketing_events"
	REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "ticketing_event_counts_apply"();
--> statement-breakpoint
-- Evidence is append-only: identity audit entries and sealed governance records are chained by
-- hash, and the database refuses to change or remove them, whatever the application does.
CREATE FUNCTION "refuse_evidence_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "identity_audit_events_append_only" BEFORE UPDATE OR DELETE ON "identity_audit_events"
	FOR EACH ROW EXECUTE FUNCTION "refuse_evidence_change"();--> statement-breakpoint
CREATE TRIGGER "governance_records_append_only" BEFORE UPDATE OR DELETE ON "governance_records"
	FOR EACH ROW EXECUTE FUNCTION "refuse_evidence_change"();
