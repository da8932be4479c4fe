CREATE TABLE "governance_admissions" (
	"nonce" text PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"admitted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"mandate" text[] NOT NULL,
	"baseline_fingerprint" text NOT NULL,
	"baseline_max_drift" double precision NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "governance_agents_profile_agent" UNIQUE("profile_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "governance_chain_heads" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"head_hash" text NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_delegations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"granted_by" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"result" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_records" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"execution_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"seq" integer NOT NULL,
	"nonce" text NOT NULL,
	"disposition" text NOT NULL,
	"canonical" text NOT NULL,
	"hash" text NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "governance_records_execution_id_unique" UNIQUE("execution_id"),
	CONSTRAINT "governance_records_nonce_unique" UNIQUE("nonce"),
	CONSTRAINT "governance_records_profile_seq" UNIQUE("profile_id","seq")
);
--> statement-breakpoint
ALTER TABLE "governance_admissions" ADD CONSTRAINT "governance_admissions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_admissions" ADD CONSTRAINT "governance_admissions_record_id_governance_records_record_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."governance_records"("record_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_agents" ADD CONSTRAINT "governance_agents_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_chain_heads" ADD CONSTRAINT "governance_chain_heads_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_delegations" ADD CONSTRAINT "governance_delegations_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_deliveries" ADD CONSTRAINT "governance_deliveries_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_records" ADD CONSTRAINT "governance_records_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_delegations_agent_idx" ON "governance_delegations" USING btree ("profile_id","agent_id");--> statement-breakpoint
CREATE INDEX "governance_deliveries_execution_idx" ON "governance_deliveries" USING btree ("execution_id","attempted_at");