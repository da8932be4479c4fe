import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';

type Setting = 'synchronous_commit' | 'enable_bitmapscan' | 'plan_cache_mode' | 'max_parallel_workers_per_gather' | 'jit';
const setting = async (db: Db, name: Setting) =>
  rowsOf<Record<string, string>>(await db.execute(sql`select current_setting(${name}) as value`))[0]!.value;

describe('bookkeeping commits (Database.bookkeeping)', () => {
  const { ctx } = useTestApp();

  it('commits the runner’s bookkeeping without waiting for the disk, and everything else durably; claims count running jobs without bitmap scans', async () => {
    const { database } = ctx.app;
    // What people are answered about waits for the WAL on disk.
    expect(await setting(database.db, 'synchronous_commit')).toBe('on');
    if (database.kind === 'postgres') {
      // Claims, attempts and job ends: a crash of PostgreSQL may forget the last of them, and a rerun redoes it.
      expect(await setting(database.bookkeeping, 'synchronous_commit')).toBe('off');
      // A claim counts the running jobs per key through jobs_running_idx, which holds a dead entry
      // for each job that ended since the last vacuum: an index scan learns to step over them, a
      // bitmap scan reads each one's heap page at every claim (src/db/client.ts).
      expect(await setting(database.bookkeeping, 'enable_bitmapscan')).toBe('off');
      expect(await setting(database.db, 'enable_bitmapscan')).toBe('on');
    } else {
      // PGlite has one connection: the same handle.
      expect(database.bookkeeping).toBe(database.db);
    }
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'plans the requests’ statements once, without the parallel workers or JIT a plan made without values calls for (PostgreSQL)',
    async () => {
      const { database } = ctx.app;
      expect(database.kind).toBe('postgres');
      // Such a plan costs a page of 20 as a tenth of the table: at a million rows it gathered
      // parallel workers and JIT-compiled reads of a few rows (src/db/client.ts).
      expect(await setting(database.db, 'plan_cache_mode')).toBe('force_generic_plan');
      expect(await setting(database.db, 'max_parallel_workers_per_gather')).toBe('0');
      expect(await setting(database.db, 'jit')).toBe('off');
    },
  );
});
