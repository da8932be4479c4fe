import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';

describe('GET /v1/governance/records', () => {
  const { ctx } = useTestApp();

  it("pages through the caller's chain in seq order, each record exactly as issued", async () => {
    const tenant = await governedTenant(ctx);
    const other = await governedTenant(ctx);
    const issued = [];
    for (let i = 0; i < 5; i++) {
      issued.push((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key)).body);
      await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), other.key);
    }

    const all = await call(ctx, 'GET', '/v1/governance/records', undefined, tenant.key);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ records: issued, next_after_seq: null });

    const first = await call(ctx, 'GET', '/v1/governance/records?limit=2', undefined, tenant.key);
    expect(first.body).toEqual({ records: issued.slice(0, 2), next_after_seq: 2 });
    const second = await call(ctx, 'GET', '/v1/governance/records?after_seq=2&limit=2', undefined, tenant.key);
    expect(second.body).toEqual({ records: issued.slice(2, 4), next_after_seq: 4 });
    const last = await call(ctx, 'GET', '/v1/governance/records?after_seq=4&limit=2', undefined, tenant.key);
    expect(last.body).toEqual({ records: issued.slice(4), next_after_seq: null });
    // A page that ends exactly at the end of the chain says so.
    const exact = await call(ctx, 'GET', '/v1/governance/records?after_seq=3&limit=2', undefined, tenant.key);
    expect(exact.body).toEqual({ records: issued.slice(3), next_after_seq: null });
    const beyond = await call(ctx, 'GET', '/v1/governance/records?after_seq=99', undefined, tenant.key);
    expect(beyond.body).toEqual({ records: [], next_after_seq: null });

    // The other profile sees its own chain only.
    const theirs = await call(ctx, 'GET', '/v1/governance/records', undefined, other.key);
    expect(theirs.body.records).toHaveLength(5);
    expect(theirs.body.records.map((r: { record_id: string }) => r.record_id)).not.toContain(issued[0].record_id);
  });

  it('answers an empty chain', async () => {
    const tenant = await governedTenant(ctx, 'quiet-agent');
    expect((await call(ctx, 'GET', '/v1/governance/records', undefined, tenant.key)).body).toEqual({ records: [], next_after_seq: null });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
    ['after_seq=-1', 'after_seq'],
    ['after_seq=1.5', 'after_seq'],
  ])('refuses %s with 400 in the governance format', async (query, field) => {
    const tenant = await governedTenant(ctx, `agent-${field}`);
    const res = await call(ctx, 'GET', `/v1/governance/records?${query}`, undefined, tenant.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(field) } });
  });

  it('needs a governance key with governance:read', async () => {
    const noKey = await call(ctx, 'GET', '/v1/governance/records');
    expect(noKey.status).toBe(401);
    expect(noKey.body.error.code).toBe('UNAUTHORIZED');
    const tenant = await governedTenant(ctx, 'agent-scope');
    const decideOnly = await addKey(ctx, tenant.profileId, { service: 'governance', scopes: ['governance:decide'] });
    const res = await call(ctx, 'GET', '/v1/governance/records', undefined, decideOnly.key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
