import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { skippedOnPostgres } from './once.js';

/**
 * PGlite takes seconds to start and migrate; test files start from one migrated snapshot
 * instead. On PostgreSQL (DATABASE_URL set) each file makes a database of its own.
 */
export default async function setup() {
  announceSkippedTests(process.env);
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

/**
 * Says once, before the first test file, which tests this run skips and how to include them:
 * the PostgreSQL-only and Redis-only files use `describe.runIf`, which vitest only counts as
 * "skipped" in its summary.
 */
export function announceSkippedTests(
  env: NodeJS.ProcessEnv,
  write: (line: string) => unknown = (line) => process.stderr.write(line),
): void {
  const missing = [
    env.DATABASE_URL
      ? null
      : 'PostgreSQL (DATABASE_URL=postgres://…): several instances on one database, outages, kill -9 mid-job, the pg_dump backup',
    env.REDIS_URL ? null : 'Redis (REDIS_URL=redis://…): rate limits and the authentication brake shared across instances',
  ].filter((need): need is string => need !== null);
  if (skippedOnPostgres(env))
    write(
      '\nOn PostgreSQL this run leaves out the tests whose subject never meets the store (the browser tests, the document ' +
        "reader's own, the embedded DATA_DIR's): the embedded run covers them. TEST_EVERYTHING_ON_POSTGRES=1 runs them here too.\n",
    );
  if (missing.length === 0) return;
  write(
    `\nThis run skips the tests that need:${missing.map((m) => `\n  - ${m}`).join('')}\n` +
      'They show as "skipped" in the summary. To run them too: ' +
      'DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm test (README, "Test").\n\n',
  );
}
