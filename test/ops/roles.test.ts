import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { rowsOf } from '../../src/db/client.js';
import { PIPELINE_QUEUE } from '../../src/identity/capture/service.js';
import { startupLines } from '../../src/startup-lines.js';
import { ADMIN_TOKEN, usingPostgres } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';

const METRICS_TOKEN = 'roles-metrics-token-0123456789';

describe('ROLE (docs/operations.md, "Roles")', () => {
  it('is all by default, and api or worker only on PostgreSQL: the embedded database serves one process', () => {
    expect(loadConfig({}).ROLE).toBe('all');
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://db/partner' }).ROLE).toBe('api');
    expect(loadConfig({ ROLE: 'worker', DATABASE_URL: 'postgresql://db/partner' }).ROLE).toBe('worker');
    for (const env of [{ ROLE: 'api' }, { ROLE: 'worker', DATABASE_URL: 'memory://' }, { ROLE: 'worker', DATA_DIR: '/tmp/x' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/^invalid configuration: ROLE: api and worker need PostgreSQL \(DATABASE_URL=postgres:\/\/…\)/);
    }
    expect(() => loadConfig({ ROLE: 'jobs', DATABASE_URL: 'postgres://db/partner' })).toThrow(/^invalid configuration: ROLE: /);
  });

  it('is said in the startup lines: a worker points at no API, an API instance says who runs its jobs', () => {
    const postgres = { DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/partner', ADMIN_TOKEN: ADMIN_TOKEN };
    expect(startupLines(loadConfig({ ...postgres, ROLE: 'worker' }), 3000)).toEqual([
      'Partner services worker (ROLE=worker) on http://127.0.0.1:3000: runs jobs; serves only /health, /ready and /metrics',
      'Database: PostgreSQL partner at db.internal:5432',
    ]);
    const api = startupLines(loadConfig({ ...postgres, ROLE: 'api' }), 3000);
    expect(api).toHaveLength(5);
    expect(api[4]).toBe('Role: api (ROLE=api): serves the APIs and queues jobs; worker instances (ROLE=worker) run them');
    expect(startupLines(loadConfig(postgres), 3000)).toHaveLength(4);
  });
});

/**
 * One API-only and one worker-only instance on one PostgreSQL, as `docker compose --profile scale`
 * runs them: the API instance answers and queues; only the worker runs what was queued.
 */
describe.runIf(usingPostgres())('ROLE=api beside ROLE=worker on one PostgreSQL', () => {
  // Face checks on: an API-only instance must still start neither pool.
  const { ctx: apiNode, tenant } = useTestApp(
    { env: { ...HIGH_LIMITS, ROLE: 'api', FACE_CHECKS: 'on', DOCUMENT_READING: 'on' }, startJobs: true },
    { tenant: identityTenant },
  );
  let housekeepingBeforeWorker: string[] = [];
  const housekeeping = async () =>
    rowsOf<{ queue: string }>(
      await apiNode.app.db.execute(
        sql`select queue from jobs where queue not in ('identity.pipeline', 'webhooks.fanout', 'webhooks.deliver') order by 1`,
      ),
    ).map((r) => r.queue);
  beforeAll(async () => {
    housekeepingBeforeWorker = await housekeeping();
  });
  const { ctx: worker } = useTestApp(() => ({
    shareWith: apiNode,
    clock: apiNode.clock,
    env: { ROLE: 'worker', METRICS_TOKEN, FACE_CHECKS: 'off', DOCUMENT_READING: 'off' },
  }));

  it('the API instance starts no document reader or face pool and schedules no housekeeping; the worker does', async () => {
    expect(apiNode.app.faces).toBeNull();
    expect(apiNode.app.documents).toBeNull();
    expect(housekeepingBeforeWorker).toEqual([]);
    expect(await housekeeping()).toEqual(['idempotency.purge', 'identity.retention', 'jobs.purge', 'webhooks.attempts-purge']);
  });

  it('a verification uploaded to the API instance is queued there, never run there, and decided by the worker', async () => {
    const v = await captureAll(apiNode, tenant.backend, { mrz: null });
    const pipelineJob = async () =>
      rowsOf<{ state: string; attempts: number }>(
        await apiNode.app.db.execute(
          sql`select state, attempts from jobs where queue = ${PIPELINE_QUEUE} and payload->>'verificationId' = ${v.id}`,
        ),
      );
    expect(await pipelineJob()).toEqual([{ state: 'pending', attempts: 0 }]);
    // Its runner was started (startJobs) and a drain runs what is due: the API instance runs nothing.
    expect(await apiNode.app.jobs.drain()).toBe(0);
    expect(await pipelineJob()).toEqual([{ state: 'pending', attempts: 0 }]);
    const read = async () => (await api(apiNode).call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
    expect((await read()).status).toBe('processing');

    expect(await worker.app.jobs.drain()).toBeGreaterThan(0);
    expect(await pipelineJob()).toEqual([{ state: 'done', attempts: 1 }]);
    expect(await read()).toMatchObject({ status: 'approved', decided_at: expect.any(String) });
    // Its decision webhook was queued by the worker and attempted by it (nothing listens there).
    const attempts = rowsOf(
      await apiNode.app.db.execute(sql`select a.attempt from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        join webhook_events e on e.id = d.event_id where e.body->'data'->>'verification_id' = ${v.id}`),
    );
    expect(attempts).toHaveLength(1);
  });

  it('the worker answers 404 to the three APIs, the operator API, the docs and the web app', async () => {
    const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const backend = { authorization: `Bearer ${tenant.backend}` };
    for (const [method, url, headers] of [
      ['GET', '/', {}],
      ['GET', '/api/v1/events', backend],
      ['GET', '/v1/verifications/00000000-0000-4000-8000-000000000000', backend],
      ['POST', '/v1/verifications', backend],
      ['GET', '/v1/capture/status', backend],
      ['GET', '/v1/.well-known/jwks.json', {}],
      ['GET', '/v1/governance/log', backend],
      ['GET', '/v1/proof/boundaries', {}],
      ['GET', '/admin/v1/profiles', operator],
      ['POST', '/admin/v1/profiles', operator],
      ['GET', '/docs', {}],
      ['GET', '/openapi.json', {}],
      ['GET', '/console/', {}],
      ['GET', '/capture', {}],
    ] as const) {
      const res = await worker.app.inject({ method, url, headers });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toEqual({
        error: { code: 'NOT_FOUND', message: expect.stringContaining('ROLE=worker') },
      });
      // The instance's answers keep the process-wide headers.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    // The same paths answer on the API instance.
    expect((await apiNode.app.inject({ method: 'GET', url: '/admin/v1/profiles', headers: operator })).statusCode).toBe(200);
    expect((await apiNode.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });

  it('the worker answers /health, /ready and /metrics', async () => {
    expect((await worker.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await worker.app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ready', database: 'ok' });
    const metrics = await worker.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('identity_decisions_total{status="approved",reason="none"} 1');
    expect((await worker.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  });
});
