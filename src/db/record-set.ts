import { sql, type SQL } from 'drizzle-orm';

/** A value one row of a record set carries: what a `pg` array parameter holds. */
export type SqlValue = string | number | boolean | null;

/**
 * Rows as a FROM item `alias(columns…)`: one array parameter per column, unnested together. One
 * statement text for any number of rows, and PostgreSQL plans with the arrays' real lengths
 * (jsonb_to_recordset is always guessed at 100 rows, which made it hash-join whole tables).
 */
export function recordSet(rows: Record<string, SqlValue>[], columns: string, alias = 'r'): SQL {
  const declared = columns.split(',').map((column) => {
    const [name, type] = column.trim().split(/\s+/);
    if (!name || !type) throw new Error(`a record set's columns are "name type, …", not "${columns}"`);
    return { name, type };
  });
  const arrays = declared.map(({ name, type }) => sql`${sql.param(rows.map((row) => row[name] ?? null))}::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.raw(alias)}(${sql.raw(declared.map((c) => c.name).join(', '))})`;
}
