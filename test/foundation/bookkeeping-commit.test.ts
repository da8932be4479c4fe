import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';

const synchronousCommit = async (db: Db) =>
  rowsOf<{ synchronous_commit: string }>(await db.execute(sql`show synchronous_commit`))[0]!.synchronous_commit;

describe('bookkeeping commits (Database.bookkeeping)', () => {
  const { ctx } = useTestApp();

  it('commits the runner’s bookkeeping without waiting for the disk, and everything else durably', async () => {
    const { database } = ctx.app;
    // What people are answered about waits for the WAL on disk.
    expect(await synchronousCommit(database.db)).toBe('on');
    if (database.kind === 'postgres') {
      // Claims, attempts and job ends: a crash of PostgreSQL may forget the last of them, and a rerun redoes it.
      expect(await synchronousCommit(database.bookkeeping)).toBe('off');
    } else {
      // PGlite has one connection: the same handle.
      expect(database.bookkeeping).toBe(database.db);
    }
  });
});
