import { fileURLToPath } from 'node:url';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.js';

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Applies every SQL migration in migrations/; the same files serve PostgreSQL and PGlite. */
export async function applyMigrations(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    // One instance at a time: several processes starting together must not race the DDL.
    const client = await database.pool!.connect();
    try {
      await client.query('select pg_advisory_lock(727274)');
      await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {});
      client.release();
    }
    return;
  }
  await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
}
