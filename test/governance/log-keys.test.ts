import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';

/** GET /v1/governance/log/keys: the logs' keys published apart from the checkpoints they sign. */
describe('the transparency logs’ keys, for auditors to pin', () => {
  const { ctx } = useTestApp();

  it('lists every profile’s log with the keys its checkpoints carry, without a key, cacheable', async () => {
    const empty = await call(ctx, 'GET', '/v1/governance/log/keys');
    expect(empty.status).toBe(200);
    const before = empty.body.keys.length as number;

    const first = await governedTenant(ctx);
    expect((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), first.key)).status).toBe(201);
    ctx.clock.advance(60_000);
    const second = await governedTenant(ctx); // a governance key, no record yet: its log exists, empty
    const ticketingOnly = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] });

    const res = await call(ctx, 'GET', '/v1/governance/log/keys');
    expect(res.status).toBe(200);
    expect(res.raw.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(String(res.raw.headers['cache-control']))![1])).toBeGreaterThan(0);
    const keys = res.body.keys as { origin: string; verifier_key: string; ml_dsa_public_key: string; created_at: string }[];
    expect(keys).toHaveLength(before + 2);
    for (const entry of keys) expect(Object.keys(entry).sort()).toEqual(['created_at', 'ml_dsa_public_key', 'origin', 'verifier_key']);
    expect(keys.some((k) => k.origin.endsWith(ticketingOnly.profileId))).toBe(false);

    // Each entry is what that profile's checkpoint answer carries, so the two can be compared.
    for (const tenant of [first, second]) {
      const log = (await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key)).body;
      const entry = keys.find((k) => k.origin === log.origin);
      expect(entry, tenant.profileId).toBeDefined();
      expect(entry!.origin).toBe(`localhost:3000/governance/${tenant.profileId}`);
      expect(entry!.verifier_key).toBe(log.verifier_key);
      expect(entry!.ml_dsa_public_key).toBe(log.ml_dsa.public_key);
    }
    // Oldest profile first, each dated when its log's keys first signed for it.
    const firstEntry = keys.findIndex((k) => k.origin.endsWith(first.profileId));
    const secondEntry = keys.findIndex((k) => k.origin.endsWith(second.profileId));
    expect(firstEntry).toBeLessThan(secondEntry);
    expect(Date.parse(keys[secondEntry]!.created_at) - Date.parse(keys[firstEntry]!.created_at)).toBeGreaterThanOrEqual(60_000);
    expect(keys[secondEntry]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers 304 to If-None-Match with its ETag while the list is unchanged, and a new ETag once a log is added', async () => {
    const res = await call(ctx, 'GET', '/v1/governance/log/keys');
    const etag = String(res.raw.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const same = await ctx.app.inject({ method: 'GET', url: '/v1/governance/log/keys', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(etag);
    const other = await ctx.app.inject({ method: 'GET', url: '/v1/governance/log/keys', headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);

    await governedTenant(ctx);
    const changed = await ctx.app.inject({ method: 'GET', url: '/v1/governance/log/keys', headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('shows the operator the same list', async () => {
    const operator = await ctx.admin('GET', '/governance/log-keys');
    const published = (await call(ctx, 'GET', '/v1/governance/log/keys')).body;
    expect(operator).toEqual({ success: true, data: published });
  });
});
