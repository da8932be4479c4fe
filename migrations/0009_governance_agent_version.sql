-- A decision may be evaluated from an instance's cached copy of its agent and delegations; it is
-- sealed only while the agent's version is still the one that copy was read at
-- (src/governance/chain.ts). So every change to an agent or to one of its delegations must bump
-- the version, whoever makes it: triggers, not application code (drizzle-kit does not generate them).
ALTER TABLE "governance_agents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE FUNCTION "governance_agent_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'DELETE' THEN
		UPDATE "governance_agents" SET "version" = "version" + 1
		WHERE "profile_id" = NEW."profile_id" AND "agent_id" = NEW."agent_id";
	END IF;
	IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD."profile_id", OLD."agent_id") IS DISTINCT FROM (NEW."profile_id", NEW."agent_id")) THEN
		UPDATE "governance_agents" SET "version" = "version" + 1
		WHERE "profile_id" = OLD."profile_id" AND "agent_id" = OLD."agent_id";
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "governance_delegations_bump_agent" AFTER INSERT OR UPDATE OR DELETE ON "governance_delegations"
	FOR EACH ROW EXECUTE FUNCTION "governance_agent_version_bump"();--> statement-breakpoint
-- An update of the agent row itself (its mandate or baseline) bumps it too, unless it already does.
CREATE FUNCTION "governance_agent_version_own"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."version" = OLD."version" THEN
		NEW."version" := OLD."version" + 1;
	END IF;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "governance_agents_bump_version" BEFORE UPDATE ON "governance_agents"
	FOR EACH ROW EXECUTE FUNCTION "governance_agent_version_own"();
