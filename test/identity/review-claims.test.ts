import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityAuditEvents } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';

const NOTE = 'Compared the portrait with every frame by hand.';

describe('reviewer claims on cases in review', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  let dana: { key: string; keyId: string };
  let lee: { key: string; keyId: string };
  beforeAll(async () => {
    dana = await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Dana' });
    lee = await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer' });
  });
  const claim = (key: string, id: string, status?: number) => api(ctx).call('PUT', `/v1/review/${id}/claim`, key, undefined, status);
  const release = (key: string, id: string, status?: number) => api(ctx).call('DELETE', `/v1/review/${id}/claim`, key, undefined, status);
  const queueClaim = async (id: string) =>
    (await api(ctx).call('GET', '/v1/review', lee.key, undefined, 200)).json().items.find((i: { id: string }) => i.id === id).claim;

  it('shows who holds a case in the queue and the case; another key is refused until the claim lapses', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9301);
    expect(await queueClaim(id)).toBeNull();
    const until = new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString();
    expect((await claim(dana.key, id, 200)).json()).toEqual({
      claim: { reviewer: `reviewer:${dana.keyId}`, reviewer_name: 'Dana', until },
    });
    expect(await queueClaim(id)).toEqual({ reviewer: `reviewer:${dana.keyId}`, reviewer_name: 'Dana', until });
    expect((await api(ctx).call('GET', `/v1/review/${id}`, lee.key, undefined, 200)).json().claim).toMatchObject({ reviewer_name: 'Dana' });
    const refused = await claim(lee.key, id, 409);
    expect(refused.json()).toEqual({ detail: `Another reviewer holds this case until ${until}` });
    await release(lee.key, id, 409);
    // Claiming again renews; 15 minutes after the last claim it lapses and another key may take it.
    ctx.clock.advance(10 * 60_000);
    await claim(dana.key, id, 200);
    ctx.clock.advance(10 * 60_000);
    await claim(lee.key, id, 409);
    ctx.clock.advance(5 * 60_000);
    expect(await queueClaim(id)).toBeNull();
    expect((await claim(lee.key, id, 200)).json().claim).toMatchObject({ reviewer: `reviewer:${lee.keyId}`, reviewer_name: null });
    expect((await release(lee.key, id, 200)).json()).toEqual({ claim: null });
    expect((await release(dana.key, id, 200)).json()).toEqual({ claim: null });
  });

  it('does not block a decision; the decision ends the claim; decided, unknown and foreign cases are refused', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9302);
    await claim(dana.key, id, 200);
    await api(ctx).call('POST', `/v1/review/${id}`, lee.key, { decision: 'approve', note: NOTE }, 200);
    expect((await api(ctx).call('GET', `/v1/review/${id}`, dana.key, undefined, 200)).json().claim).toBeNull();
    expect((await claim(dana.key, id, 409)).json().detail).toMatch(/approved, not in manual_review/);
    await claim(dana.key, '00000000-0000-4000-8000-000000000000', 404);
    await claim(dana.key, 'not-a-uuid', 404);
    const other = await identityTenant(ctx);
    const foreign = await captureIntoManualReview(ctx, other.backend, 9303);
    await claim(dana.key, foreign.id, 404);
    await claim(other.backend, foreign.id, 403);
    await api(ctx).call('PUT', `/v1/review/${foreign.id}/claim`, null, undefined, 401);
  });

  it('puts each claim and each release of a held claim in the audit trail with the reviewer key as actor; refusals and empty releases add nothing', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9304);
    const trail = async () => {
      const rows = await ctx.app.db
        .select()
        .from(identityAuditEvents)
        .where(eq(identityAuditEvents.verificationId, id))
        .orderBy(identityAuditEvents.seq);
      expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
      return rows.filter((r) => r.type.startsWith('review.') && r.type !== 'review.case_viewed').map((r) => [r.type, r.actor, r.data]);
    };
    await release(dana.key, id, 200);
    const first = new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString();
    await claim(dana.key, id, 200);
    await claim(lee.key, id, 409);
    await release(lee.key, id, 409);
    ctx.clock.advance(60_000);
    const renewed = new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString();
    await claim(dana.key, id, 200);
    await release(dana.key, id, 200);
    await release(dana.key, id, 200);
    const taken = new Date(ctx.clock.now().getTime() + 15 * 60_000).toISOString();
    await claim(lee.key, id, 200);
    expect(await trail()).toEqual([
      ['review.claimed', `reviewer:${dana.keyId}`, { until: first }],
      ['review.claimed', `reviewer:${dana.keyId}`, { until: renewed }],
      ['review.released', `reviewer:${dana.keyId}`, {}],
      ['review.claimed', `reviewer:${lee.keyId}`, { until: taken }],
    ]);
    // The reviewer's case view lists them with the key's name, as every reviewer event.
    const audit = (await api(ctx).call('GET', `/v1/review/${id}`, dana.key, undefined, 200)).json().audit;
    expect(audit.filter((e: { type: string }) => e.type === 'review.released')).toEqual([
      { type: 'review.released', at: expect.any(String), actor: `reviewer:${dana.keyId}`, actor_name: 'Dana' },
    ]);
  });
});
