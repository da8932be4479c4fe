import type { DbOrTx } from './client.js';

const statementsByDb = new WeakMap<DbOrTx, Map<string, unknown>>();

/**
 * A named prepared statement of this database handle, built once. Hot lookups use it: Drizzle
 * then neither rebuilds the query nor PostgreSQL re-plans it on every call. On PostgreSQL its one
 * plan is made without the parameters' values (src/db/client.ts), so write it so that plan is
 * right for every value: lookups by key, and pages whose row fetch cannot become a join over the
 * whole table (src/ticketing/repo.ts, eventPageJson).
 */
export function prepared<T>(db: DbOrTx, name: string, build: (name: string) => T): T {
  let statements = statementsByDb.get(db);
  if (!statements) statementsByDb.set(db, (statements = new Map()));
  let statement = statements.get(name) as T | undefined;
  if (!statement) statements.set(name, (statement = build(name)));
  return statement;
}

/** What both drivers' prepared queries have beside `execute`, though Drizzle's types do not say so. */
interface RawPrepared {
  all(placeholderValues?: Record<string, unknown>): Promise<unknown[]>;
}

/**
 * A prepared statement's rows as the driver answers them, keyed by the statement's column names
 * and parsed only by the driver's types: Drizzle's mapping of each row onto its select object is
 * skipped. For hot statements of many rows whose columns are already what the caller needs
 * (a hundred JSON texts of a page): that mapping cost about a tenth of the server's time there
 * (bench/profiles/page100-server.md).
 */
export async function rawRows<R>(statement: object, values: Record<string, unknown>): Promise<R[]> {
  return (await (statement as RawPrepared).all(values)) as R[];
}
