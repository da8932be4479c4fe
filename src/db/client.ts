import { socketWithReconnectLookup } from '../lib/reconnect-lookup.js';
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
  /**
   * For the job runner's and the webhook deliveries' own bookkeeping (claims, attempts started,
   * jobs ended): on PostgreSQL a second pool whose commits do not wait for the WAL to reach disk
   * (`synchronous_commit=off`). Visibility and locking are as on `db`; only a crash of PostgreSQL
   * itself can forget the last fraction of a second of it, and what it forgets is redone: a job
   * claimed or ended again runs again, a delivery may arrive twice, as at-least-once allows.
   * Changes people are answered about (orders, decisions, sealed records, outbox events) commit
   * on `db`. The same handle as `db` on PGlite.
   */
  bookkeeping: Db;
  kind: 'postgres' | 'pglite';
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The pg pool when on PostgreSQL (LISTEN/NOTIFY, raw clients); undefined on PGlite. */
  pool?: pg.Pool;
  /** The pool behind `bookkeeping` on PostgreSQL (its connections are reported in the metrics). */
  bookkeepingPool?: pg.Pool;
  pglite?: PGlite;
}

interface DatabaseOptions {
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
    const open = (options?: string) => {
      const pool = new pg.Pool({
        connectionString: opts.url,
        max: 10,
        // A dead database must answer quickly (readiness, clean 503s), not hang a request.
        connectionTimeoutMillis: 3_000,
        // Every client of both pools, the job listener and the key cache: the host found without piling up lookups (see reconnectLookup).
        stream: socketWithReconnectLookup,
        options,
      });
      // An idle client losing its server must not crash the process; the next query reports it.
      pool.on('error', () => {});
      // Nor may a checked-out one: the pool listens for a client's 'error' only while it is idle, and
      // a connection dropped between two statements of a transaction (every connection to a leader
      // that dies in a failover, docs/failover.md) is an 'error' event with no listener, which ends
      // the process. The transaction's next statement fails as unavailable instead, and the broken
      // client is discarded when it is released.
      pool.on('connect', (client) => client.on('error', () => {}));
      return pool;
    };
    // Named statements (src/db/prepared.ts) are planned once, for every value: PostgreSQL would
    // otherwise re-plan a statement whose plan without values it costs dearer than the plans
    // with them (a LIMIT given as a parameter is costed as a tenth of the table), at every call.
    // The setting holds for every statement with parameters on these connections, unnamed ones
    // too, and a plan made without values expects far more rows than a page or the last hour
    // holds: at a million rows such plans gathered two parallel workers (60–100 ms to start them
    // for a 20-row page of the delivery log that takes 0.3 ms) and JIT-compiled the operator's
    // activity reads (157 ms of compiling). Neither pays off for the server's short statements,
    // so both are off here (docs/benchmarks.md, "Data growth"; auto_explain on bench:growth's
    // database). A report that needs them can set them in its own transaction.
    const pool = open('-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off');
    // Connections are opened on first use: a process that runs no jobs opens none here.
    // Without bitmap scans: every job a claim counts (running, per concurrency key) leaves a dead
    // entry in jobs_running_idx when it ends, until a vacuum. A bitmap scan visits each dead
    // entry's heap page at every claim (21,864 entries for 61 running jobs, 1.6 of a 2.2 ms claim,
    // measured with auto_explain during `npm run bench:webhooks`; docs/benchmarks.md, Background work); an
    // index scan marks them dead the first time and steps over them after. The pool's other
    // statements look rows up by key, where an index scan is the plan anyway.
    const bookkeepingPool = open('-c synchronous_commit=off -c enable_bitmapscan=off');
    return {
      db: drizzlePg(pool, { schema }) as unknown as Db,
      bookkeeping: drizzlePg(bookkeepingPool, { schema }) as unknown as Db,
      kind: 'postgres',
      pool,
      bookkeepingPool,
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        await Promise.all([pool.end(), bookkeepingPool.end()]);
      },
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
    bookkeeping: db,
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
