-- The transparency log (README, "Transparency log"): each profile's records are the leaves of an
-- RFC 9162 Merkle tree. A record keeps the tree hashes its leaf completes (its leaf hash, then
-- the root of every perfect subtree ending with it), the chain head keeps the tree's right edge.
-- Records sealed before this migration get theirs here, computed as src/governance/merkle.ts
-- does: leaf = SHA-256(0x00 || canonical UTF-8 bytes), node = SHA-256(0x01 || left || right).
ALTER TABLE "governance_chain_heads" ADD COLUMN "tree_frontier" "bytea" DEFAULT ''::bytea NOT NULL;--> statement-breakpoint
ALTER TABLE "governance_records" ADD COLUMN "tree_hashes" "bytea";--> statement-breakpoint
-- Records are append-only (migration 0001): the backfill is the one update they ever get, and it
-- only fills the new column; the refusal is back before the migration commits.
ALTER TABLE "governance_records" DISABLE TRIGGER "governance_records_append_only";--> statement-breakpoint
DO $$
DECLARE
	lvl int := 0;
BEGIN
	-- Every perfect subtree: (level, idx) covers leaves [idx * 2^level, (idx + 1) * 2^level).
	CREATE TEMP TABLE "tree_nodes" ON COMMIT DROP AS
		SELECT "profile_id", 0 AS "level", "seq" - 1 AS "idx", sha256('\x00'::bytea || convert_to("canonical", 'UTF8')) AS "hash"
		FROM "governance_records";
	CREATE INDEX ON "tree_nodes" ("level", "profile_id", "idx");
	LOOP
		INSERT INTO "tree_nodes" ("profile_id", "level", "idx", "hash")
			SELECT l."profile_id", lvl + 1, l."idx" / 2, sha256('\x01'::bytea || l."hash" || r."hash")
			FROM "tree_nodes" l
			JOIN "tree_nodes" r ON r."profile_id" = l."profile_id" AND r."level" = lvl AND r."idx" = l."idx" + 1
			WHERE l."level" = lvl AND l."idx" % 2 = 0;
		EXIT WHEN NOT FOUND;
		lvl := lvl + 1;
	END LOOP;
	-- A subtree's root is kept by the record of its last leaf, smallest subtree (the leaf) first.
	UPDATE "governance_records" g SET "tree_hashes" = n."hashes"
	FROM (
		SELECT "profile_id", ("idx" + 1) * (1 << "level") AS "seq", string_agg("hash", ''::bytea ORDER BY "level") AS "hashes"
		FROM "tree_nodes" GROUP BY 1, 2
	) n
	WHERE g."profile_id" = n."profile_id" AND g."seq" = n."seq";
	-- The right edge of a tree of size n: the subtree at each bit of n, largest first.
	UPDATE "governance_chain_heads" h SET "tree_frontier" = f."hashes"
	FROM (
		SELECT c."profile_id", string_agg(n."hash", ''::bytea ORDER BY n."level" DESC) AS "hashes"
		FROM "governance_chain_heads" c
		JOIN "tree_nodes" n ON n."profile_id" = c."profile_id" AND (c."seq" >> n."level") & 1 = 1 AND n."idx" = (c."seq" >> n."level") - 1
		GROUP BY 1
	) f
	WHERE h."profile_id" = f."profile_id";
END
$$;--> statement-breakpoint
ALTER TABLE "governance_records" ENABLE TRIGGER "governance_records_append_only";--> statement-breakpoint
ALTER TABLE "governance_records" ALTER COLUMN "tree_hashes" SET NOT NULL;
