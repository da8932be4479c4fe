import { and, asc, eq, exists, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { prepared } from '../db/prepared.js';
import { apiKeys, profiles } from '../db/schema/core.js';
import { governanceChainHeads, governanceRecords } from '../db/schema/governance.js';
import { splitHashes } from './merkle.js';

/** The SQL of the transparency log: the tree's right edge and the hashes records keep. */

/** The profile's tree as committed: its size and right edge (size 0 before its first record). */
export async function treeHead(db: DbOrTx, profileId: string): Promise<{ size: number; frontier: Buffer[] }> {
  const statement = prepared(db, 'governance_tree_head', (name) =>
    db
      .select({ seq: governanceChainHeads.seq, frontier: governanceChainHeads.treeFrontier })
      .from(governanceChainHeads)
      .where(eq(governanceChainHeads.profileId, sql.placeholder('profileId')))
      .prepare(name),
  );
  const [row] = await statement.execute({ profileId });
  return row ? { size: row.seq, frontier: splitHashes(row.frontier) } : { size: 0, frontier: [] };
}

/**
 * The tree hashes kept by the profile's records of these seqs (each record's leaf hash, then the
 * subtrees it completes, smallest first), by seq; a seq beyond the chain is absent. One
 * statement over the (profile_id, seq) key: a proof reads O(log n) rows, never a range.
 */
export async function keptHashes(db: DbOrTx, profileId: string, seqs: number[]): Promise<Map<number, Buffer[]>> {
  const statement = prepared(db, 'governance_kept_hashes', (name) =>
    db
      .select({ seq: governanceRecords.seq, treeHashes: governanceRecords.treeHashes })
      .from(governanceRecords)
      .where(
        and(
          eq(governanceRecords.profileId, sql.placeholder('profileId')),
          sql`${governanceRecords.seq} = any(${sql.placeholder('seqs')}::int[])`,
        ),
      )
      .prepare(name),
  );
  const rows = await statement.execute({ profileId, seqs });
  return new Map(rows.map((row) => [row.seq, splitHashes(row.treeHashes)]));
}

/**
 * The profiles that have a transparency log: those holding a governance key (revoked ones too:
 * their records stay in the log) or a chain, with when each profile was created; oldest first.
 */
export async function logProfiles(db: DbOrTx): Promise<{ profileId: string; createdAt: Date }[]> {
  return db
    .select({ profileId: profiles.id, createdAt: profiles.createdAt })
    .from(profiles)
    .where(
      or(
        exists(
          db
            .select({ one: sql`1` })
            .from(apiKeys)
            .where(and(eq(apiKeys.profileId, profiles.id), eq(apiKeys.service, 'governance'))),
        ),
        exists(
          db
            .select({ one: sql`1` })
            .from(governanceChainHeads)
            .where(eq(governanceChainHeads.profileId, profiles.id)),
        ),
      ),
    )
    .orderBy(asc(profiles.createdAt), asc(profiles.id));
}
