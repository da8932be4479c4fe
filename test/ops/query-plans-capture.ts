import pg from 'pg';

/** One distinct statement the app sent, with the values of its first call and the session options of its pool. */
export interface CapturedStatement {
  text: string;
  values: unknown[];
  /** The pool's `-c` options (plan_cache_mode, enable_bitmapscan): the plan is made under the same settings. */
  options: string;
}

/**
 * Records every statement any pg client of this process sends while `on` is true, by wrapping
 * Client.prototype.query: both pools of the app, prepared and unnamed statements alike. What
 * PL/pgSQL triggers run inside the database is not seen here.
 */
export function captureStatements() {
  const seen = new Map<string, CapturedStatement>();
  const original = pg.Client.prototype.query;
  let on = false;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
    if (on) {
      const text = typeof config === 'string' ? config : (config as { text?: string })?.text;
      const params = Array.isArray(values) ? values : ((config as { values?: unknown[] })?.values ?? []);
      const options = String((this as unknown as { connectionParameters?: { options?: string } }).connectionParameters?.options ?? '');
      if (text && /^\s*(select|insert|update|delete|with)\b/i.test(text) && !seen.has(text)) {
        seen.set(text, { text, values: params, options });
      }
    }
    return (original as (...args: unknown[]) => unknown).call(this, config, values, callback);
  } as typeof original;
  return {
    start: () => void (on = true),
    stop: () => void (on = false),
    statements: () => [...seen.values()],
    restore: () => void (pg.Client.prototype.query = original),
  };
}

/** The `-c name=value` settings of a pool's options, as SET statements. */
function settingsOf(options: string): string[] {
  return [...options.matchAll(/-c\s+([a-z_]+)=(\S+)/g)].map(([, name, value]) => `set local ${name} = ${value}`);
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: PlanNode[] };

/**
 * The tables a plan reads whole: by a Seq Scan, or by walking an index from end to end with no
 * condition (what a planner forbidden to scan a table does instead, and no cheaper). A walk with
 * no condition under a Limit that nothing between collects (no Sort, Hash or Aggregate; the outer
 * side of a Nested Loop) stops after a page: the first rows of an index in its order.
 */
function wholeTableReadsOf(node: PlanNode, out: WholeRead[] = [], limited = false): WholeRead[] {
  const type = node['Node Type'];
  const table = node['Relation Name'];
  if (table && type === 'Seq Scan') out.push({ table, by: 'Seq Scan' });
  if (table && /^Index (Only )?Scan$/.test(type) && !node['Index Cond'] && !limited)
    out.push({ table, by: `${type} of ${node['Index Name']} without a condition`, index: node['Index Name'] });
  const streams = type === 'Limit' || (limited && STREAMING.has(type));
  (node.Plans ?? []).forEach((child, i) => wholeTableReadsOf(child, out, streams && !(type === 'Nested Loop' && i > 0)));
  return out;
}

/** Nodes that hand rows on as they come, so a Limit above them stops the scan below. */
const STREAMING = new Set(['Nested Loop', 'Incremental Sort', 'Result', 'Unique']);

export interface WholeRead {
  table: string;
  by: string;
  /** The index walked from end to end, when that is how. */
  index?: string;
}

export interface PlannedStatement extends CapturedStatement {
  plan: string;
  wholeReads: WholeRead[];
}

/**
 * The plan PostgreSQL makes for a statement with sequential scans switched off: a Seq Scan left
 * in it is one no index can replace. The statement is prepared and explained through EXECUTE, so
 * a pool planning generically (plan_cache_mode=force_generic_plan) is explained with the plan it
 * really runs; nothing is executed (EXPLAIN without ANALYZE, inside a rolled-back transaction).
 */
export async function planOf(client: pg.Client, statement: CapturedStatement): Promise<PlannedStatement> {
  await client.query('begin');
  try {
    for (const setting of settingsOf(statement.options)) await client.query(setting);
    await client.query('set local enable_seqscan = off');
    await client.query(`prepare explained as ${statement.text}`);
    // EXECUTE takes no bind parameters: the captured values go in as untyped literals, which
    // take the types PREPARE inferred, as the driver's text parameters do.
    const args = statement.values.map(literalOf).join(', ');
    const execute = statement.values.length ? `execute explained(${args})` : 'execute explained';
    const res = await client.query(`explain (format json) ${execute}`);
    const root = (res.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan;
    const text = await client.query(`explain ${execute}`);
    return {
      ...statement,
      plan: text.rows.map((r) => r['QUERY PLAN']).join('\n'),
      wholeReads: wholeTableReadsOf(root),
    };
  } finally {
    await client.query('rollback');
    // PREPARE is not undone by a rollback.
    await client.query('deallocate all');
  }
}

/** A value as pg sends it in text format, quoted as a literal of no type. */
function literalOf(value: unknown): string {
  const text = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils.prepareValue(value);
  if (text === null || text === undefined) return 'null';
  return pg.escapeLiteral(Buffer.isBuffer(text) ? `\\x${text.toString('hex')}` : String(text));
}
