import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/**
 * The app talks to PostgreSQL through a relay the test cuts and restores: readiness must fail
 * while the database is gone, every API must answer a clean 503 in its own format, and both
 * must recover without a restart.
 */
describe.runIf(process.env.DATABASE_URL)('readiness and database outages (PostgreSQL)', () => {
  const { ctx: owner } = useTestApp();
  let proxy: TcpProxy;
  let proxied: URL;

  beforeAll(async () => {
    const direct = new URL(owner.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const { ctx } = useTestApp(() => ({ shareWith: owner, env: { DATABASE_URL: proxied.toString() } }));

  const get = (url: string, key?: string) => ctx.app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const ready = () => get('/ready');

  async function expectReadyAgain() {
    await vi.waitFor(async () => expect((await ready()).statusCode).toBe(200), { timeout: 10_000, interval: 200 });
  }

  it('has a pg pool that gives up connecting after a few seconds', () => {
    const timeout = ctx.app.database.pool!.options.connectionTimeoutMillis;
    expect(timeout).toBeGreaterThan(0);
    expect(timeout).toBeLessThanOrEqual(5_000);
  });

  it('fails /ready while the database is unreachable and recovers without a restart', async () => {
    expect((await ready()).statusCode).toBe(200);
    proxy.cut();
    const started = performance.now();
    const down = await ready();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
    expect(performance.now() - started).toBeLessThan(4_000);
    expect((await get('/health')).statusCode).toBe(200);

    proxy.restore();
    await expectReadyAgain();
  });

  it('answers /ready quickly and the APIs with 503 when the database hangs instead of refusing', async () => {
    proxy.blackhole();
    try {
      const started = performance.now();
      expect((await ready()).statusCode).toBe(503);
      expect(performance.now() - started).toBeLessThan(4_000);

      const res = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/profiles',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'During the outage', plan: 'PRO' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    } finally {
      proxy.restore();
    }
    await expectReadyAgain();
  });

  it('answers 503 in the operator envelope during an outage, with no SQL or stack in it', async () => {
    proxy.cut();
    try {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/profiles',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'During the outage', plan: 'PRO' },
      });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' } });
      expect(res.body).not.toMatch(/insert|select|ECONN|at .*\.ts/i);
    } finally {
      proxy.restore();
    }
    await expectReadyAgain();
    const after = await ctx.admin('POST', '/profiles', { name: 'After the outage', plan: 'PRO' });
    expect(after.data.name).toBe('After the outage');
  });

  // Each API authenticates against the database first; an unknown key must meet a 503 in that
  // API's own error format, not a 401 nor a 500. APIs whose routes are not mounted are skipped.
  const apis = [
    {
      name: 'ticketing',
      url: '/api/v1/events',
      shape: (b: any) =>
        expect(b).toEqual({ success: false, error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) }),
    },
    { name: 'identity', url: '/v1/review', shape: (b: any) => expect(b).toEqual({ detail: expect.any(String) }) },
    {
      name: 'governance',
      url: '/v1/carrier/00000000-0000-4000-8000-000000000000',
      shape: (b: any) => expect(b).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) }),
    },
  ];
  for (const api of apis) {
    it(`answers 503 in the ${api.name} format while the database is unreachable`, async () => {
      const bogus = 'not-a-real-key-0123456789abcdefghijklmnop';
      const up = await get(api.url, bogus);
      expect(up.statusCode).toBe(401);
      proxy.cut();
      try {
        const res = await get(api.url, bogus);
        expect(res.statusCode).toBe(503);
        api.shape(res.json());
      } finally {
        proxy.restore();
      }
      await expectReadyAgain();
      expect((await get(api.url, bogus)).statusCode).toBe(401);
    });
  }
});
