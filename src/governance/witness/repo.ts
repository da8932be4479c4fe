import { and, eq, inArray, max, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client.js';
import { governanceWitnessCosignatures as cosignatures } from '../../db/schema/governance.js';

/** The SQL of the witnesses' cosignatures (docs/governance.md, "Witnesses"). */

export interface StoredCosignature {
  profileId: string;
  witness: string;
  treeSize: number;
  cosignedAt: number;
  signature: string;
  createdAt: Date;
}

/** The largest tree size the witness cosigned for the profile's log, 0 when none. */
export async function lastCosignedSize(db: DbOrTx, profileId: string, witness: string): Promise<number> {
  const [row] = await db
    .select({ size: max(cosignatures.treeSize) })
    .from(cosignatures)
    .where(and(eq(cosignatures.profileId, profileId), eq(cosignatures.witness, witness)));
  return row?.size ?? 0;
}

/** Keeps a verified cosignature; a second one for the same size and witness keeps the first. */
export async function saveCosignature(db: DbOrTx, row: StoredCosignature): Promise<void> {
  await db.insert(cosignatures).values(row).onConflictDoNothing();
}

/** The cosignatures of these witnesses over the profile's checkpoint of `treeSize`, by witness name. */
export async function cosignaturesAt(db: DbOrTx, profileId: string, treeSize: number, witnesses: string[]) {
  if (witnesses.length === 0) return [];
  return db
    .select({ witness: cosignatures.witness, cosignedAt: cosignatures.cosignedAt, signature: cosignatures.signature })
    .from(cosignatures)
    .where(and(eq(cosignatures.profileId, profileId), eq(cosignatures.treeSize, treeSize), inArray(cosignatures.witness, witnesses)))
    .orderBy(cosignatures.witness);
}

/**
 * The profiles whose tree is larger than the last size the witness cosigned for them: what a
 * start finds to submit when a submission was never queued (a crash between a seal and its job).
 */
export async function logsAheadOf(db: DbOrTx, witness: string): Promise<string[]> {
  const result = await db.execute(sql`
    select h.profile_id from governance_chain_heads h
    where h.seq > coalesce((select max(c.tree_size) from governance_witness_cosignatures c
                            where c.profile_id = h.profile_id and c.witness = ${witness}), 0)`);
  return rowsOf<{ profile_id: string }>(result).map((row) => row.profile_id);
}
