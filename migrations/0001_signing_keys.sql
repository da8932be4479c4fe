CREATE TABLE "signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"public_key" text NOT NULL,
	"seed" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"retired_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_live_purpose" ON "signing_keys" USING btree ("purpose") WHERE retired_at is null;