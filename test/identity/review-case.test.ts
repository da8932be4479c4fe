import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityAuditEvents, identityVerifications } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureAll, captureIntoManualReview, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

describe('reviewer case view and images', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  let reviewerKeyId: string;
  beforeAll(async () => {
    const reviewer = await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer' });
    tenant.reviewer = reviewer.key;
    reviewerKeyId = reviewer.keyId;
  });

  const inManualReview = (seed: number) => captureIntoManualReview(ctx, tenant.backend, seed);

  it('shows everything a decision needs', async () => {
    const { id, challenge } = await inManualReview(7001);
    const res = await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200);
    const view = res.json();
    expect(view).toMatchObject({ id, status: 'manual_review', reason: 'document_reused', reference: 'order-42', signals: {} });
    expect(view.document).toEqual({
      image_url: `/v1/review/${id}/images/document`,
      content_type: 'image/png',
      width: 640,
      height: 480,
      back: null,
      // Document reading is off in this file: the zone is the one typed, and nothing was read.
      mrz: expect.objectContaining({
        documentNumber: 'X12345678',
        lastName: 'DOE',
        firstName: 'JANE MARIA',
        expirationDate: '310101',
        source: 'typed',
        lines: '',
      }),
    });
    expect(view.steps).toHaveLength(challenge.steps.length);
    for (const [i, s] of challenge.steps.entries()) {
      expect(view.steps[i]).toEqual({
        step: s.step,
        instruction: s.instruction,
        pose: s.pose,
        image_url: `/v1/review/${id}/images/selfie/${s.step}`,
        content_type: 'image/png',
        width: 640,
        height: 480,
        source: 'camera',
      });
    }
    const types = view.audit.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('verification.created');
    // Opening the case is itself recorded, last.
    expect(types.slice(-2)).toEqual(['verification.manual_review', 'review.case_viewed']);
    expect(view.audit[0]).toEqual({
      type: 'verification.created',
      at: expect.stringMatching(/Z$/),
      actor: expect.stringMatching(/^backend:/),
      actor_name: null,
    });
  });

  it('answers mrz null when the document came without one', async () => {
    const document = png(640, 480, { seed: 7002 });
    const first = await captureAll(ctx, tenant.backend, { document, mrz: null });
    await settle(ctx, tenant.backend, first.id);
    const second = await captureAll(ctx, tenant.backend, { document, mrz: null });
    expect((await settle(ctx, tenant.backend, second.id)).status).toBe('manual_review');
    const view = (await api(ctx).call('GET', `/v1/review/${second.id}`, tenant.reviewer, undefined, 200)).json();
    expect(view.status).toBe('manual_review');
    expect(view.document.mrz).toBeNull();
  });

  it('serves the stored bytes, never cached, and records every view in the audit chain', async () => {
    const { id, challenge } = await inManualReview(7003);
    const [v] = await ctx.app.db.select().from(identityVerifications).where(eq(identityVerifications.id, id));
    const doc = await api(ctx).call('GET', `/v1/review/${id}/images/document`, tenant.reviewer, undefined, 200);
    expect(doc.headers['content-type']).toBe('image/png');
    expect(doc.headers['cache-control']).toBe('no-store');
    expect(doc.headers['x-content-type-options']).toBe('nosniff');
    expect(doc.rawPayload.equals(await ctx.app.blobs.get(v!.documentBlob!))).toBe(true);
    const last = challenge.steps.at(-1).step;
    const frame = await api(ctx).call('GET', `/v1/review/${id}/images/selfie/${last}`, tenant.reviewer, undefined, 200);
    expect(frame.headers['content-type']).toBe('image/png');
    expect(frame.headers['cache-control']).toBe('no-store');
    expect(frame.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');

    const rows = await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id));
    const viewed = rows.filter((r) => r.type === 'review.image_viewed').sort((a, b) => a.seq - b.seq);
    expect(viewed.map((r) => [r.actor, r.data])).toEqual([
      [`reviewer:${reviewerKeyId}`, { image: 'document' }],
      [`reviewer:${reviewerKeyId}`, { image: 'selfie', step: last }],
    ]);
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200)).json();
    expect(view.audit.slice(-3)).toEqual([
      { type: 'review.image_viewed', at: expect.any(String), actor: `reviewer:${reviewerKeyId}`, actor_name: null },
      { type: 'review.image_viewed', at: expect.any(String), actor: `reviewer:${reviewerKeyId}`, actor_name: null },
      { type: 'review.case_viewed', at: expect.any(String), actor: `reviewer:${reviewerKeyId}`, actor_name: null },
    ]);
  });

  it('answers 404 for another profile, an unknown id or step, and needs a reviewer key', async () => {
    const { id } = await inManualReview(7004);
    const other = await identityTenant(ctx);
    const a = api(ctx);
    for (const url of [`/v1/review/${id}`, `/v1/review/${id}/images/document`, `/v1/review/${id}/images/selfie/0`]) {
      const res = await a.call('GET', url, other.reviewer, undefined, 404);
      expect(Object.keys(res.json())).toEqual(['detail']);
      await a.call('GET', url, tenant.backend, undefined, 403);
      await a.call('GET', url, null, undefined, 401);
    }
    await a.call('GET', '/v1/review/not-a-uuid', tenant.reviewer, undefined, 404);
    await a.call('GET', `/v1/review/${id}/images/selfie/42`, tenant.reviewer, undefined, 404);
    expect((await a.call('GET', `/v1/review/${id}/images/selfie/x`, tenant.reviewer, undefined, 422)).json()).toHaveProperty('detail');
    // Nothing was shown, so nothing was recorded.
    const rows = await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id));
    expect(rows.filter((r) => r.type.startsWith('review.'))).toEqual([]);
  });

  it('opens a case only in manual_review and for 24 hours after a reviewer decided it; otherwise 404', async () => {
    const a = api(ctx);
    const urls = (id: string) => [`/v1/review/${id}`, `/v1/review/${id}/images/document`];
    const reach = async (id: string) => Promise.all(urls(id).map(async (url) => (await a.call('GET', url, tenant.reviewer)).statusCode));
    // Still being captured, being processed, decided by the pipeline: out of reach.
    const waiting = await a.createVerification(tenant.backend);
    expect(await reach(waiting.id)).toEqual([404, 404]);
    const processing = await captureAll(ctx, tenant.backend);
    expect(await reach(processing.id)).toEqual([404, 404]);
    expect((await settle(ctx, tenant.backend, processing.id)).status).toBe('approved');
    expect(await reach(processing.id)).toEqual([404, 404]);
    // In review, and for 24 hours after the reviewer's decision.
    const { id } = await inManualReview(7007);
    expect(await reach(id)).toEqual([200, 200]);
    await a.call(
      'POST',
      `/v1/review/${id}`,
      tenant.reviewer,
      { decision: 'approve', note: 'Checked the hologram and the face by hand.' },
      200,
    );
    expect(await reach(id)).toEqual([200, 200]);
    ctx.clock.advance(24 * 60 * 60 * 1000 - 1);
    expect(await reach(id)).toEqual([200, 200]);
    ctx.clock.advance(1);
    const gone = await a.call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 404);
    expect(Object.keys(gone.json())).toEqual(['detail']);
    expect(await reach(id)).toEqual([404, 404]);
  });

  it('records every case opened as review.case_viewed with the reviewer key as actor, and nothing for a refusal', async () => {
    const { id } = await inManualReview(7008);
    await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200);
    await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200);
    const other = await identityTenant(ctx);
    await api(ctx).call('GET', `/v1/review/${id}`, other.reviewer, undefined, 404);
    const rows = await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id));
    expect(rows.filter((r) => r.type === 'review.case_viewed').map((r) => [r.actor, r.data])).toEqual([
      [`reviewer:${reviewerKeyId}`, {}],
      [`reviewer:${reviewerKeyId}`, {}],
    ]);
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
  });

  it('answers 410 once the verification is erased', async () => {
    const { id } = await inManualReview(7005);
    await api(ctx).call('DELETE', `/v1/verifications/${id}`, tenant.backend, undefined, 200);
    for (const url of [`/v1/review/${id}`, `/v1/review/${id}/images/document`, `/v1/review/${id}/images/selfie/0`]) {
      const res = await api(ctx).call('GET', url, tenant.reviewer, undefined, 410);
      expect(Object.keys(res.json())).toEqual(['detail']);
    }
  });

  it('reads each step’s pose when the challenge carries one', async () => {
    const { id } = await inManualReview(7006);
    const [v] = await ctx.app.db.select().from(identityVerifications).where(eq(identityVerifications.id, id));
    const posed = (v!.challenge as { step: number; instruction: string }[]).map((s, i) => ({
      ...s,
      pose: (['front', 'left', 'right'] as const)[i % 3],
    }));
    await ctx.app.db.update(identityVerifications).set({ challenge: posed }).where(eq(identityVerifications.id, id));
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200)).json();
    expect(view.steps.map((s: { pose: string }) => s.pose)).toEqual(posed.map((s) => s.pose));
  });

  it('lists the other verifications of the profile that used the same document, and whether a reviewer may open each', async () => {
    const document = png(640, 480, { seed: 9401 });
    const first = await captureAll(ctx, tenant.backend, { document });
    await settle(ctx, tenant.backend, first.id);
    const second = await captureAll(ctx, tenant.backend, { document });
    expect((await settle(ctx, tenant.backend, second.id)).status).toBe('manual_review');
    const third = await captureAll(ctx, tenant.backend, { document });
    expect((await settle(ctx, tenant.backend, third.id)).status).toBe('manual_review');
    // Another profile's upload of the same image is not its business.
    const other = await identityTenant(ctx);
    await settle(ctx, other.backend, (await captureAll(ctx, other.backend, { document })).id);

    const view = (await api(ctx).call('GET', `/v1/review/${third.id}`, tenant.reviewer, undefined, 200)).json();
    expect(view.reason).toBe('document_reused');
    // Oldest first; the three were created at the same instant of the test clock, so the id breaks the tie.
    expect(view.document_used_by).toEqual(
      [
        { id: first.id, status: 'approved', created_at: expect.any(String), in_reach: false },
        { id: second.id, status: 'manual_review', created_at: expect.any(String), in_reach: true },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    const single = await captureAll(ctx, tenant.backend, { document: png(640, 480, { seed: 9402 }) });
    await settle(ctx, tenant.backend, single.id);
    await ctx.app.db.update(identityVerifications).set({ status: 'manual_review' }).where(eq(identityVerifications.id, single.id));
    expect((await api(ctx).call('GET', `/v1/review/${single.id}`, tenant.reviewer, undefined, 200)).json().document_used_by).toEqual([]);
  });
});
