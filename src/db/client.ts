import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { templateFor } from './pglite-template.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** One type over both drivers: services never know which database they run on. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The pg pool when on PostgreSQL (LISTEN/NOTIFY, raw clients); undefined on PGlite. */
  pool?: pg.Pool;
  pglite?: PGlite;
}

export interface DatabaseOptions {
  url?: string;
  dataDir: string;
  /**
   * A tarball of an already migrated data directory to start a new one from (tests; a fresh
   * DATA_DIR uses the build's template, src/db/pglite-template.ts, unless this says otherwise).
   */
  loadDataDir?: Blob;
  /** Where the build's template is; tests point it elsewhere. */
  pgliteTemplate?: string;
}

// timestamptz and friends are parsed by drizzle column mappers; keep pg from turning
// int8 and numeric into lossy numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url && opts.url !== 'memory://') {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      // A dead database must answer quickly (readiness, clean 503s), not hang a request.
      connectionTimeoutMillis: 3_000,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.url !== 'memory://') {
    dataDir = join(opts.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const loadDataDir = opts.loadDataDir ?? (dataDir ? templateFor(dataDir, opts.pgliteTemplate) : undefined);
  const client = await PGlite.create({ dataDir, loadDataDir });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}

/** The rows of a raw `db.execute(sql…)` result; both drivers answer `{ rows }`. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
