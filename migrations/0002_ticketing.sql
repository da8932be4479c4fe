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
ALTER TABLE "ticketing_events" ADD CONSTRAINT "ticketing_events_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticketing_events" ADD CONSTRAINT "ticketing_events_place_id_venues_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."venues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticketing_check_ins_event_scanned_idx" ON "ticketing_check_ins" USING btree ("event_id","scanned_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_issued_tickets_event_created_idx" ON "ticketing_issued_tickets" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_issued_tickets_order_idx" ON "ticketing_issued_tickets" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ticketing_order_items_order_idx" ON "ticketing_order_items" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "ticketing_orders_event_created_idx" ON "ticketing_orders" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticketing_ticket_types_event_idx" ON "ticketing_ticket_types" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "ticketing_events_profile_starts_idx" ON "ticketing_events" USING btree ("profile_id","starts_at","id");