CREATE TABLE "governance_witness_cosignatures" (
	"profile_id" uuid NOT NULL,
	"witness" text NOT NULL,
	"tree_size" integer NOT NULL,
	"cosigned_at" bigint NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "governance_witness_cosignatures_profile_id_witness_tree_size_pk" PRIMARY KEY("profile_id","witness","tree_size")
);
--> statement-breakpoint
ALTER TABLE "governance_witness_cosignatures" ADD CONSTRAINT "governance_witness_cosignatures_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;