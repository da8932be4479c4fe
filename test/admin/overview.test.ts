import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';

describe('operator list views', () => {
  const { ctx } = useTestApp({ env: HIGH_LIMITS });

  it('lists profiles newest first, paged', async () => {
    const a = await ctx.admin('POST', '/profiles', { name: 'Overview A', plan: 'PRO' });
    ctx.clock.advance(1000);
    const b = await ctx.admin('POST', '/profiles', { name: 'Overview B', plan: 'FREE' });
    const first = await ctx.admin('GET', '/profiles?limit=1');
    expect(first.data).toMatchObject({
      page: 1,
      limit: 1,
      items: [{ id: b.data.id, name: 'Overview B', plan: 'FREE', createdAt: expect.any(String) }],
    });
    expect(first.data.total).toBeGreaterThanOrEqual(2);
    const second = await ctx.admin('GET', '/profiles?limit=1&page=2');
    expect(second.data.items[0].id).toBe(a.data.id);
    await ctx.admin('GET', '/profiles?limit=0', undefined, 400);
  });

  it("lists a profile's verifications with a status filter", async () => {
    const tenant = await identityTenant(ctx);
    const v = await api(ctx).createVerification(tenant.backend);
    const all = await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`);
    expect(all.data).toMatchObject({ total: 1, items: [{ id: v.id, status: 'awaiting_capture', reference: 'order-42', erased: false }] });
    const none = await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications?status=manual_review`);
    expect(none.data).toMatchObject({ total: 0, items: [] });
    await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications?status=bogus`, undefined, 400);
  });

  it('answers 404 for an unknown profile and 401 without the token', async () => {
    for (const path of ['verifications', 'events', 'governance']) {
      const res = await ctx.admin('GET', `/profiles/00000000-0000-4000-8000-000000000000/${path}`, undefined, 404);
      expect(res).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      await ctx.admin('GET', `/profiles/nope/${path}`, undefined, 404);
    }
    const res = await ctx.app.inject({ method: 'GET', url: '/admin/v1/profiles' });
    expect(res.statusCode).toBe(401);
    expect(ADMIN_TOKEN).toBeTruthy();
  });

  it("lists a profile's events and governance rows", async () => {
    const p = await ctx.admin('POST', '/profiles', { name: 'Gov', plan: 'ENTERPRISE' });
    const id = p.data.id;
    expect((await ctx.admin('GET', `/profiles/${id}/events?status=DRAFT`)).data).toMatchObject({ items: [], total: 0 });
    await ctx.admin('POST', '/governance/agents', {
      profileId: id,
      agentId: 'agent-1',
      mandate: ['read:*'],
      baseline: { fingerprint: 'fp', maxDrift: 0.2 },
    });
    await ctx.admin('POST', '/governance/delegations', {
      profileId: id,
      agentId: 'agent-1',
      grantedBy: 'ops@example.com',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    const gov = await ctx.admin('GET', `/profiles/${id}/governance`);
    expect(gov.data.agents).toMatchObject([{ agentId: 'agent-1', mandate: ['read:*'], baseline: { fingerprint: 'fp', maxDrift: 0.2 } }]);
    expect(gov.data.delegations).toMatchObject([{ agentId: 'agent-1', grantedBy: 'ops@example.com', revokedAt: null }]);
  });
});
