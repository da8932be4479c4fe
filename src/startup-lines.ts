import { resolve } from 'node:path';
import type { Config } from './config.js';

/** Which store DATABASE_URL selects, said so a person can find it (never the password). */
function describeDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): string {
  const url = config.DATABASE_URL;
  if (!url) return `embedded PGlite in ${resolve(config.DATA_DIR, 'pglite')} (set DATABASE_URL=postgres://… for PostgreSQL)`;
  if (url === 'memory://') return 'in-memory PGlite (DATABASE_URL=memory://): nothing is kept after the process exits';
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\//, '') || '(default database)';
  return `PostgreSQL ${database} at ${parsed.hostname}:${parsed.port || '5432'}`;
}

/**
 * The lines `npm start` prints once it listens: where to reach it, which database, whether the
 * operator API is on, where the docs are. `port` is the one actually bound (PORT=0 picks one).
 */
export function startupLines(
  config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'ADMIN_TOKEN' | 'HOST'> & Partial<Pick<Config, 'ROLE'>>,
  port: number,
): string[] {
  const anyInterface = ['0.0.0.0', '::', '[::]'].includes(config.HOST);
  const host = anyInterface ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const base = `http://${host}:${port}`;
  // A worker serves no API (docs/operations.md, "Roles"): say what it does instead of pointing at routes it lacks.
  if (config.ROLE === 'worker')
    return [
      `Partner services worker (ROLE=worker) on ${base}: runs jobs; serves only /health, /ready and /metrics`,
      `Database: ${describeDatabase(config)}`,
    ];
  return [
    `Partner services listening on ${base}${anyInterface ? ` (all interfaces, port ${port})` : ''}`,
    `Database: ${describeDatabase(config)}`,
    config.ADMIN_TOKEN
      ? `Operator API: on at ${base}/admin/v1 (Authorization: Bearer <ADMIN_TOKEN>)`
      : 'Operator API: off; set ADMIN_TOKEN (16 characters or more) and restart to turn on /admin/v1',
    `API docs: ${base}/docs (OpenAPI document: ${base}/openapi.json)`,
    ...(config.ROLE === 'api' ? ['Role: api (ROLE=api): serves the APIs and queues jobs; worker instances (ROLE=worker) run them'] : []),
  ];
}
