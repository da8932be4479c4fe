import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { KEY_TTL_MS } from '../../src/idempotency/key.js';
import { PURGE_INTERVAL_MS, PURGE_QUEUE } from '../../src/idempotency/purge.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { goodDecision, governedTenant } from '../helpers/governance.js';
import { keyedCall, keyRows, newKey } from './support.js';

describe('the purge of expired Idempotency-Keys', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(() => ctx?.close());

  const purgeJobs = async () =>
    rowsOf<{ state: string; run_at: string }>(
      await ctx.app.db.execute(sql`select state, run_at from jobs where queue = ${PURGE_QUEUE}`),
    ).map((r) => ({ state: r.state, runAt: new Date(r.run_at).toISOString() }));

  it('is one job, due every hour, that deletes the keys older than 24 hours and nothing else', async () => {
    const tenant = await governedTenant(ctx);
    const decide = (key: string) =>
      keyedCall(ctx, { method: 'POST', url: '/v1/governance/decisions', token: tenant.key, key, body: goodDecision(ctx) });
    const [old, recent] = [newKey('old'), newKey('recent')];
    expect((await decide(old)).statusCode).toBe(201);
    expect(await purgeJobs()).toHaveLength(1);

    ctx.clock.advance(KEY_TTL_MS - PURGE_INTERVAL_MS);
    expect((await decide(recent)).statusCode).toBe(201);
    ctx.clock.advance(PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await keyRows(ctx, old)).toEqual([]);
    expect(await keyRows(ctx, recent)).toHaveLength(1);
    expect(await purgeJobs()).toEqual([{ state: 'pending', runAt: new Date(ctx.clock.now().getTime() + PURGE_INTERVAL_MS).toISOString() }]);

    // The recent key is 23 hours old at the next run, then 24.
    ctx.clock.advance(KEY_TTL_MS - 2 * PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await keyRows(ctx, recent)).toHaveLength(1);
    ctx.clock.advance(PURGE_INTERVAL_MS);
    await ctx.app.jobs.drain();
    expect(await keyRows(ctx, recent)).toEqual([]);
  });
});

describe('the OpenAPI document and Idempotency-Key', () => {
  let ctx: TestContext;
  let doc: { paths: Record<string, Record<string, any>> };
  beforeAll(async () => {
    ctx = await buildTestApp();
    doc = ctx.app.swagger() as never;
  });
  afterAll(() => ctx?.close());

  const honouring = () =>
    Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op.parameters?.some((p: { name: string; in: string }) => p.name === 'Idempotency-Key' && p.in === 'header'))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      )
      .sort();

  it('documents the request header on exactly the operations that honour it', () => {
    const writes = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((op) => /^(POST|PATCH) \/api\/v1\//.test(op));
    expect(honouring()).toEqual(
      [
        ...writes,
        'POST /v1/verifications',
        'POST /v1/verifications/{id}/handoff',
        'POST /v1/governance/decisions',
        'POST /admin/v1/events/{eventId}/orders',
        'POST /admin/v1/orders/{orderId}/pay',
        'POST /admin/v1/orders/{orderId}/refund',
      ].sort(),
    );
    expect(writes.length).toBeGreaterThanOrEqual(2);
  });

  it('documents Idempotent-Replayed on the answers a key keeps, and the 409 and 422 in the API’s error body', () => {
    for (const op of honouring()) {
      const [method, path] = op.split(' ');
      const { responses } = doc.paths[path!]![method!.toLowerCase()];
      const success = Object.keys(responses).find((s) => s.startsWith('2'))!;
      expect(responses[success].headers?.['Idempotent-Replayed'], op).toBeDefined();
      for (const status of ['401', '403', '429', '500', '503']) {
        if (responses[status]) expect(responses[status].headers?.['Idempotent-Replayed'], `${op} ${status}`).toBeUndefined();
      }
      for (const status of ['409', '422']) {
        expect(responses[status].description, `${op} ${status}`).toMatch(/Idempotency-Key/);
        expect(responses[status].content, `${op} ${status}`).toEqual(responses['401'].content);
      }
      expect(JSON.stringify(doc.paths[path!]![method!.toLowerCase()])).not.toContain('x-idempotency-key');
    }
  });
});
