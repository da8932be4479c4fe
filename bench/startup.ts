// Start to ready: `npm start` from a fresh data directory (the embedded database) and against
// PostgreSQL, timed until GET /ready answers 200, beside PGlite's own start in a fresh directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { freePort } from './processes.js';

const root = join(import.meta.dirname, '..');
const RUNS = 3;

export interface StartupResult {
  /** PGlite.create on a fresh directory and one query, in this process: the floor. */
  pgliteFloorMs: number[];
  pgliteMs: number[];
  postgresMs: number[];
  reason?: string;
}

/** Milliseconds from spawning `npm start` to the first 200 from /ready; the server is stopped after. */
async function timeStart(env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('not ready within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await sleep(20);
    }
  } finally {
    // npm runs the server as its child: the whole process group gets the signal.
    process.kill(-proc.pid!, 'SIGTERM');
    await new Promise((resolve) => (proc.exitCode !== null ? resolve(null) : proc.on('exit', resolve)));
  }
}

async function pgliteFloor(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-floor-'));
  try {
    const started = performance.now();
    const db = await PGlite.create(dir);
    await db.query('select 1');
    const ms = performance.now() - started;
    await db.close();
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureStartup(databaseUrl: string | undefined, log: (msg: string) => void): Promise<StartupResult> {
  const result: StartupResult = { pgliteFloorMs: [], pgliteMs: [], postgresMs: [] };
  try {
    // Unrecorded: builds the server first if the sources changed since the last build, warms the file cache.
    const warm = mkdtempSync(join(tmpdir(), 'bench-start-'));
    await timeStart({ DATA_DIR: warm }).finally(() => rmSync(warm, { recursive: true, force: true }));
    for (let i = 0; i < RUNS; i++) {
      log(`start-up, run ${i + 1} of ${RUNS}…`);
      result.pgliteFloorMs.push(await pgliteFloor());
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
      try {
        result.pgliteMs.push(await timeStart({ DATA_DIR: dataDir }));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      if (databaseUrl) result.postgresMs.push(await timeStart({ DATABASE_URL: databaseUrl, DATA_DIR: tmpdir() }));
    }
  } catch (err) {
    result.reason = err instanceof Error ? err.message : String(err);
    log(`start-up: ${result.reason}`);
  }
  return result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number | undefined) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);
const all = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(' · ');

export function startupMarkdown(r: StartupResult): string {
  const floor = median(r.pgliteFloorMs);
  const pglite = median(r.pgliteMs);
  const postgres = median(r.postgresMs);
  const pass = (ok: boolean | undefined) => (ok === undefined ? '—' : ok ? 'pass' : 'miss');
  const lines = [
    '',
    `| Start to ready (\`npm start\`, ${RUNS} runs) | median | runs (s) | Target | Result |`,
    '|---|---:|---|---|---|',
    `| PGlite's own start, fresh directory (the floor) | ${fmt(floor)} | ${all(r.pgliteFloorMs)} |  | — |`,
    `| embedded database, fresh DATA_DIR | ${fmt(pglite)} | ${all(r.pgliteMs)} | ≤ 1.5 × floor (${floor && pglite ? (pglite / floor).toFixed(2) : '—'}) | ${pass(floor && pglite ? pglite <= 1.5 * floor : undefined)} |`,
    `| PostgreSQL | ${fmt(postgres)} | ${all(r.postgresMs)} | ≤ 2 s | ${pass(postgres === undefined ? undefined : postgres <= 2000)} |`,
  ];
  if (r.reason) lines.push('', `Start-up not fully measured: ${r.reason}`);
  return `${lines.join('\n')}\n`;
}
