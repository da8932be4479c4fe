CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"service" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"role" text,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"plan" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "venues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"timezone" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text NOT NULL,
	"run_at" timestamp (3) with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"duration_ms" integer,
	"status_code" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid,
	"url" text NOT NULL,
	"signer" text NOT NULL,
	"policy" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp (3) with time zone,
	"job_id" uuid,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] DEFAULT '{}'::text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"disabled_at" timestamp (3) with time zone,
	"disabled_reason" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"type" text NOT NULL,
	"body" jsonb NOT NULL,
	"payload" text NOT NULL,
	"target_url" text,
	"signer" text,
	"policy" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"public_key" text NOT NULL,
	"seed" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"retired_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "ticketing_check_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_id" uuid,
	"order_id" uuid,
	"result" text,
	"reason_code" text,
	"scanned_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticketing_issued_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_type_id" uuid,
	"quantity" integer NOT NULL,
	"holder_name" text,
	"holder_email" text,
	"checked_in" boolean DEFAULT false NOT NULL,
	"checked_in_at" timestamp (3) with time zone,
	"voided_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticketing_order_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"ticket_type_id" uuid,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticketing_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"status" text NOT NULL,
	"total_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"buyer_name" text,
	"buyer_email" text,
	"checked_in" boolean DEFAULT false NOT NULL,
	"checked_in_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticketing_ticket_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"kind" text NOT NULL,
	"party_size" integer,
	"price_cents" integer NOT NULL,
	"quantity" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"sales_end_at" timestamp (3) with time zone,
	"is_active" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ticketing_ticket_types_stock" CHECK ("ticketing_ticket_types"."sold" >= 0 and "ticketing_ticket_types"."sold" <= "ticketing_ticket_types"."quantity")
);
--> statement-breakpoint
CREATE TABLE "ticketing_event_counts" (
	"profile_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "ticketing_event_counts_profile_id_status_pk" PRIMARY KEY("profile_id","status")
);
--> statement-breakpoint
CREATE TABLE "ticketing_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"place_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"status" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"timezone" text,
	"all_day" boolean NOT NULL,
	"address" text NOT NULL,
	"city" text,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"categories" text[] NOT NULL,
	"email" text,
	"website" text,
	"phone_number" text,
	"ticket_mode" text NOT NULL,
	"ticket_url" text,
	"offers_vip_tables" boolean DEFAULT false NOT NULL,
	"image_url" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_attestations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"claim" text NOT NULL,
	"value" jsonb,
	"kid" text NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "identity_audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"data" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_frames" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"blob_key" text NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_handoff_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "identity_handoff_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "identity_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"verification_id" uuid NOT NULL,
	"reviewer_key_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"note" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"profile_id" uuid NOT NULL,
	"status" text NOT NULL,
	"stage" text NOT NULL,
	"reference" text,
	"webhook_url" text,
	"mrz" text,
	"document_blob" text,
	"document_sha256" text,
	"document_width" integer,
	"document_height" integer,
	"challenge_id" uuid,
	"challenge" jsonb,
	"decision_reason" text,
	"fail_next_run" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"erased_at" timestamp (3) with time zone
);
--> statement-breakpoint
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
	"position" bigserial NOT NULL,
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
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "venues" ADD CONSTRAINT "venues_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_check_ins" ADD CONSTRAINT "ticketing_check_ins_event_id_ticketing_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ticketing_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_check_ins" ADD CONSTRAINT "ticketing_check_ins_ticket_id_ticketing_issued_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticketing_issued_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_check_ins" ADD CONSTRAINT "ticketing_check_ins_order_id_ticketing_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."ticketing_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_issued_tickets" ADD CONSTRAINT "ticketing_issued_tickets_order_id_ticketing_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."ticketing_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_issued_tickets" ADD CONSTRAINT "ticketing_issued_tickets_event_id_ticketing_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ticketing_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_issued_tickets" ADD CONSTRAINT "ticketing_issued_tickets_ticket_type_id_ticketing_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticketing_ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_order_items" ADD CONSTRAINT "ticketing_order_items_order_id_ticketing_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."ticketing_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_order_items" ADD CONSTRAINT "ticketing_order_items_ticket_type_id_ticketing_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticketing_ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_orders" ADD CONSTRAINT "ticketing_orders_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_orders" ADD CONSTRAINT "ticketing_orders_event_id_ticketing_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ticketing_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_ticket_types" ADD CONSTRAINT "ticketing_ticket_types_event_id_ticketing_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."ticketing_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_event_counts" ADD CONSTRAINT "ticketing_event_counts_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_events" ADD CONSTRAINT "ticketing_events_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_events" ADD CONSTRAINT "ticketing_events_place_id_venues_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_attestations" ADD CONSTRAINT "identity_attestations_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_audit_events" ADD CONSTRAINT "identity_audit_events_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_frames" ADD CONSTRAINT "identity_frames_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_handoff_tokens" ADD CONSTRAINT "identity_handoff_tokens_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_verification_id_identity_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."identity_verifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_reviews" ADD CONSTRAINT "identity_reviews_reviewer_key_id_api_keys_id_fk" FOREIGN KEY ("reviewer_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_admissions" ADD CONSTRAINT "governance_admissions_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_admissions" ADD CONSTRAINT "governance_admissions_record_id_governance_records_record_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."governance_records"("record_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_agents" ADD CONSTRAINT "governance_agents_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_chain_heads" ADD CONSTRAINT "governance_chain_heads_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_delegations" ADD CONSTRAINT "governance_delegations_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_deliveries" ADD CONSTRAINT "governance_deliveries_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "governance_records" ADD CONSTRAINT "governance_records_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_profile_idx" ON "api_keys" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "venues_profile_idx" ON "venues" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("state","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_attempt_uq" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_uq" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_state_idx" ON "webhook_deliveries" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_profile_idx" ON "webhook_endpoints" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "webhook_events_profile_idx" ON "webhook_events" USING btree ("profile_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_live_purpose" ON "signing_keys" USING btree ("purpose") WHERE retired_at is null;--> statement-breakpoint
CREATE INDEX "ticketing_check_ins_event_scanned_idx" ON "ticketing_check_ins" USING btree ("event_id","scanned_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_issued_tickets_event_created_idx" ON "ticketing_issued_tickets" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_issued_tickets_order_idx" ON "ticketing_issued_tickets" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ticketing_order_items_order_idx" ON "ticketing_order_items" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "ticketing_orders_event_created_idx" ON "ticketing_orders" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_ticket_types_event_idx" ON "ticketing_ticket_types" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "ticketing_events_profile_starts_idx" ON "ticketing_events" USING btree ("profile_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "identity_attestations_verification_idx" ON "identity_attestations" USING btree ("verification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_audit_events_seq_uq" ON "identity_audit_events" USING btree ("verification_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "identity_frames_step_uq" ON "identity_frames" USING btree ("verification_id","step");--> statement-breakpoint
CREATE INDEX "identity_handoff_tokens_verification_idx" ON "identity_handoff_tokens" USING btree ("verification_id");--> statement-breakpoint
CREATE INDEX "identity_verifications_profile_idx" ON "identity_verifications" USING btree ("profile_id","status");--> statement-breakpoint
CREATE INDEX "identity_verifications_document_idx" ON "identity_verifications" USING btree ("document_sha256");--> statement-breakpoint
CREATE INDEX "governance_delegations_agent_idx" ON "governance_delegations" USING btree ("profile_id","agent_id");--> statement-breakpoint
CREATE INDEX "governance_deliveries_execution_idx" ON "governance_deliveries" USING btree ("execution_id","attempted_at");
