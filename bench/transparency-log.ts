// The transparency log's bench: one profile's log of BENCH_LOG_RECORDS (default 1,000,000)
// generated records, bulk-inserted with their tree hashes before the server starts, then
// inclusion and consistency proofs at random positions and GET /v1/governance/log under load.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { issueApiKey } from '../src/auth/api-keys.js';
import { openDatabase, rowsOf } from '../src/db/client.js';
import { recordSet } from '../src/db/record-set.js';
import { appendLeaf, leafHash } from '../src/governance/merkle.js';
import { systemClock } from '../src/lib/clock.js';
import { sha256Hex } from '../src/lib/crypto.js';
import type { Figure } from './load.js';
import type { Row } from './report.js';
import type { Store } from './seed.js';

export const LOG_RECORDS = Number(process.env.BENCH_LOG_RECORDS ?? 1_000_000);
/** Proofs are latency budgets: measured with few connections, so the figure is the route's time, not a queue's. */
export const LOG_CONNECTIONS = Number(process.env.BENCH_LOG_CONNECTIONS ?? 4);
const BATCH = 5_000;

export interface SeededLog {
  profileId: string;
  key: string;
  size: number;
}

/**
 * A profile whose chain holds `size` generated records (the shape of sealed records, not signed:
 * proofs read only their tree hashes), its chain head and a governance:read key.
 */
export async function seedLog(store: Store, size: number, log: (msg: string) => void): Promise<SeededLog> {
  const database = await openDatabase({ url: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR! });
  try {
    const db = database.db;
    const [profile] = rowsOf<{ id: string }>(
      await db.execute(
        sql`insert into profiles (name, plan, created_at, updated_at) values ('Bench log', 'ENTERPRISE', now(), now()) returning id`,
      ),
    );
    const profileId = profile!.id;
    let frontier: Buffer[] = [];
    let headHash = '0'.repeat(64);
    const started = Date.now();
    for (let from = 0; from < size; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(size, from + BATCH); i++) {
        const seq = i + 1;
        const canonical = JSON.stringify({
          action: 'bench.log',
          agent_id: 'bench-log-agent',
          disposition: 'ALLOW',
          prev_hash: headHash,
          seq,
        });
        const bytes = Buffer.from(canonical, 'utf8');
        const leaf = appendLeaf(frontier, i, leafHash(bytes));
        frontier = leaf.frontier;
        headHash = sha256Hex(bytes);
        rows.push({
          record_id: randomUUID(),
          execution_id: randomUUID(),
          seq,
          nonce: `bench-${profileId}-${seq}`,
          canonical,
          hash: headHash,
          tree_hashes: Buffer.concat(leaf.stored).toString('hex'),
        });
      }
      await db.execute(sql`
        insert into governance_records (record_id, profile_id, execution_id, agent_id, seq, nonce, disposition, canonical, hash, tree_hashes, issued_at, expires_at)
        select r.record_id, ${profileId}, r.execution_id, 'bench-log-agent', r.seq, r.nonce, 'ALLOW', r.canonical, r.hash, decode(r.tree_hashes, 'hex'), now(), now()
        from ${recordSet(rows, 'record_id uuid, execution_id uuid, seq int, nonce text, canonical text, hash text, tree_hashes text')}`);
      if ((from / BATCH) % 20 === 0)
        log(`log seed: ${from + rows.length} of ${size} records (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    await db.execute(sql`
      insert into governance_chain_heads (profile_id, seq, head_hash, tree_frontier, updated_at)
      values (${profileId}, ${size}, ${headHash}, decode(${Buffer.concat(frontier).toString('hex')}, 'hex'), now())`);
    await db.execute(sql`vacuum analyze governance_records`);
    const key = await issueApiKey(db, systemClock, { profileId, service: 'governance', scopes: ['governance:read'] });
    return { profileId, key: key.key, size };
  } finally {
    await database.close();
  }
}

const LOG_BUDGETS = { p50Ms: 2, p99Ms: 10 };
const logBudgetRows: Record<string, { p50Ms: number; p99Ms?: number }> = {
  logInclusion: LOG_BUDGETS,
  logConsistency: LOG_BUDGETS,
  logCheckpoint: { p50Ms: LOG_BUDGETS.p50Ms },
};

/** The transparency log's rows against their latency budgets. */
export function transparencyLogMarkdown(
  rows: Row[],
  size: number,
  run: { startedAt: string; database: string; durationS: number },
): string {
  const lines = [
    '',
    `Transparency log: run ${run.startedAt} on ${run.database}, ${run.durationS} s per route, random positions drawn per request.`,
    '',
    `| Transparency log (${size.toLocaleString('en-US')} records in one profile, ${LOG_CONNECTIONS} connections) | req/s | p50 ms | p99 ms | Target | Result |`,
    '|---|---:|---:|---:|---|---|',
  ];
  for (const row of rows.filter((r) => r.id in logBudgetRows)) {
    const budget = logBudgetRows[row.id]!;
    const target = `p50 ≤ ${budget.p50Ms} ms${budget.p99Ms ? `, p99 ≤ ${budget.p99Ms} ms` : ''}`;
    if (row.status !== 'ok') {
      lines.push(`| ${row.label} | ${row.status}: ${row.reason.replace(/\|/g, '/')} | | | ${target} | — |`);
      continue;
    }
    const f: Figure = row.figure;
    const pass = f.failures === 0 && f.p50Ms <= budget.p50Ms && (budget.p99Ms === undefined || f.p99Ms <= budget.p99Ms);
    const failures = f.failures > 0 ? ` (${f.failures} failed)` : '';
    lines.push(
      `| ${row.label} | ${Math.round(f.reqPerSec).toLocaleString('en-US')}${failures} | ${f.p50Ms.toFixed(1)} | ${f.p99Ms.toFixed(1)} | ${target} | ${pass ? 'pass' : 'miss'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
