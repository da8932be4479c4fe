import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../../src/app.js';
import { configFrom } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestContext {
  app: FastifyInstance;
  clock: ManualClock;
  /** The environment the app was built with (DATABASE_URL and DATA_DIR included), to build a second instance on the same store. */
  env: Record<string, string>;
  /** Calls the operator API and returns its parsed body, failing the test on an unexpected status. */
  admin<T = any>(method: InjectOptions['method'], url: string, body?: unknown, expectStatus?: number | number[]): Promise<T>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Omit<AppOptions, 'clock' | 'loadDataDir'> {
  env?: Record<string, string>;
  clock?: ManualClock;
  /** Reuse the database of another test app (a second instance) instead of making a new one. */
  shareWith?: TestContext;
}

let snapshot: Blob | undefined;
function pgliteSnapshot(): Blob | undefined {
  const file = process.env.PGLITE_SNAPSHOT;
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

/** A fresh PostgreSQL database for one test file, dropped by the returned function. */
export async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Builds the whole app on its own store: in-memory PGlite from the migrated snapshot by
 * default, a fresh database on the PostgreSQL of DATABASE_URL when that is set.
 */
export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestContext> {
  const clock = opts.clock ?? new ManualClock();
  let dropDatabase: (() => Promise<void>) | undefined;
  let removeDir: (() => void) | undefined;
  let env: Record<string, string>;
  if (opts.shareWith) {
    env = { ...opts.shareWith.env, ...opts.env };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'app-data-'));
    removeDir = () => rmSync(dataDir, { recursive: true, force: true });
    let databaseUrl = 'memory://';
    if (process.env.DATABASE_URL) {
      const created = await createPostgresDatabase(process.env.DATABASE_URL);
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
    env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Most tests upload synthetic noise images: face checks are opted into by the face tests.
      FACE_CHECKS: 'off',
      DOCUMENT_READING: 'off',
      ...opts.env,
    };
  }
  if (opts.shareWith && env.DATABASE_URL === 'memory://') {
    throw new Error('shareWith needs PostgreSQL: in-memory PGlite cannot be shared between instances');
  }
  const app = await buildApp(configFrom(env), {
    ...opts,
    clock,
    startJobs: opts.startJobs ?? false,
    loadDataDir: env.DATABASE_URL === 'memory://' ? pgliteSnapshot() : undefined,
  });
  await app.ready();
  return {
    app,
    clock,
    env,
    async admin(method, url, body, expectStatus) {
      const res = await app.inject({
        method,
        url: `/admin/v1${url}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      });
      const expected = expectStatus ?? (method === 'POST' ? [200, 201, 202] : [200]);
      const ok = Array.isArray(expected) ? expected.includes(res.statusCode) : res.statusCode === expected;
      if (!ok) throw new Error(`admin ${method} ${url} answered ${res.statusCode}: ${res.body}`);
      return (res.body ? res.json() : undefined) as never;
    },
    async close() {
      await app.close();
      await dropDatabase?.();
      removeDir?.();
    },
  };
}

export function usingPostgres(): boolean {
  return Boolean(process.env.DATABASE_URL);
}
