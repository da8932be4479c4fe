import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';

/**
 * PGlite takes seconds to start and migrate; test files start from one migrated snapshot
 * instead. On PostgreSQL (DATABASE_URL set) each file makes a database of its own.
 */
export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const dir = mkdtempSync(join(tmpdir(), 'pglite-snapshot-'));
  const database = await openDatabase({ url: 'memory://', dataDir: dir });
  await applyMigrations(database);
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_SNAPSHOT = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
