import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { identityAuditEvents } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { useTestApp } from '../helpers/suite.js';

const NOTE = 'The portrait and the frames are not the same person.';

describe('GET /admin/v1/profiles/{id}/verifications/{verificationId}: the operator’s verification detail', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  const base = (id: string, profileId = tenant.profileId) => `/profiles/${profileId}/verifications/${id}`;
  const image = (path: string) =>
    ctx.app.inject({ method: 'GET', url: `/admin/v1${path}`, headers: { authorization: `Bearer ${ctx.app.config.ADMIN_TOKEN}` } });
  const trail = async (id: string) => {
    const rows = await ctx.app.db
      .select()
      .from(identityAuditEvents)
      .where(eq(identityAuditEvents.verificationId, id))
      .orderBy(identityAuditEvents.seq);
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
    return rows;
  };

  it('shows the timeline, the reviewer’s decision with its note, the image links and the decision webhook’s deliveries', async () => {
    const { id, challenge } = await captureIntoManualReview(ctx, tenant.backend, 9401);
    ctx.clock.advance(60_000);
    await api(ctx).call(
      'POST',
      `/v1/review/${id}`,
      tenant.reviewer,
      { decision: 'decline', note: NOTE, decline_reasons: ['face_mismatch'] },
      200,
    );
    // The outbox event becomes a delivery in a job.
    await ctx.app.jobs.drain();
    const { data } = await ctx.admin('GET', base(id), undefined, 200);
    expect(data.verification).toMatchObject({ id, status: 'declined', decision_reason: 'reviewer_declined', reference: 'order-42' });
    expect(data.timeline.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['verification.created', 'verification.manual_review', 'review.decided', 'verification.declined']),
    );
    expect(data.timeline.map((e: { seq: number }) => e.seq)).toEqual([...data.timeline.keys()].map((i) => i + 1));
    expect(data.timeline.find((e: { type: string }) => e.type === 'verification.declined')).toMatchObject({
      actor: expect.stringMatching(/^reviewer:/),
      data: { reason: 'reviewer_declined' },
    });
    expect(data.reviews).toEqual([
      {
        reviewer: expect.stringMatching(/^reviewer:/),
        reviewer_name: null,
        decision: 'decline',
        decline_reasons: ['face_mismatch'],
        note: NOTE,
        decided_at: expect.any(String),
      },
    ]);
    const imageBase = `/admin/v1${base(id)}/images`;
    expect(data.images).toEqual({
      document: `${imageBase}/document`,
      document_back: null,
      steps: challenge.steps.map((s: { step: number; instruction: string; pose: string }) => ({
        step: s.step,
        instruction: s.instruction,
        pose: s.pose,
        image_url: `${imageBase}/selfie/${s.step}`,
        source: 'camera',
      })),
    });
    expect(data.can_issue_capture_link).toBe(false);
    // Declined by a reviewer, not for image quality: new photos cannot change it.
    expect(data.can_restart_capture).toBe(false);
    // The pipeline's manual_review and the reviewer's decline each went to the webhook_url.
    expect(data.deliveries.map((d: { type: string; url: string }) => [d.type, d.url])).toEqual([
      ['verification.manual_review', 'https://127.0.0.1:9/hooks'],
      ['verification.declined', 'https://127.0.0.1:9/hooks'],
    ]);
    // The same deliveries are in the profile's delivery log, and each one's detail has the body it sends.
    const log = await ctx.admin('GET', `/webhook-deliveries?profileId=${tenant.profileId}`);
    expect(log.data.items.map((d: { id: string }) => d.id)).toEqual(
      expect.arrayContaining(data.deliveries.map((d: { id: string }) => d.id)),
    );
    const detail = (await ctx.admin('GET', `/webhook-deliveries/${data.deliveries[1].id}`, undefined, 200)).data;
    expect(JSON.parse(detail.requestBody)).toMatchObject({
      type: 'verification.declined',
      data: { verification_id: id, status: 'declined', profile_id: tenant.profileId },
    });
    expect(detail).toMatchObject({ id: data.deliveries[1].id, attempts: expect.any(Array) });
  });

  it('serves each image never cached and records every view as operator.image_viewed', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9402);
    const before = (await trail(id)).length;
    const doc = await image(`${base(id)}/images/document`);
    expect(doc.statusCode, doc.body).toBe(200);
    expect(doc.headers['content-type']).toBe('image/png');
    expect(doc.headers['cache-control']).toBe('no-store');
    expect((await image(`${base(id)}/images/selfie/0`)).statusCode).toBe(200);
    // Missing images: nothing served, nothing recorded.
    expect((await image(`${base(id)}/images/document-back`)).json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await image(`${base(id)}/images/selfie/9`)).statusCode).toBe(404);
    const rows = (await trail(id)).slice(before);
    expect(rows.map((r) => [r.type, r.actor, r.data])).toEqual([
      ['operator.image_viewed', 'operator', { image: 'document' }],
      ['operator.image_viewed', 'operator', { image: 'selfie', step: 0 }],
    ]);
    // The reviewer's case shows the operator's views in its trail.
    const audit = (await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200)).json().audit;
    expect(audit.filter((e: { type: string }) => e.type === 'operator.image_viewed')).toHaveLength(2);
  });

  it('issues a new capture link while capture is open; the earlier link stops working', async () => {
    const started = (await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, {}, 201)).data;
    expect((await ctx.admin('GET', base(started.id))).data.can_issue_capture_link).toBe(true);
    const link = (await ctx.admin('POST', `${base(started.id)}/capture-link`, undefined, 200)).data;
    expect(link).toEqual({
      verification_id: started.id,
      handoff_token: expect.stringMatching(/^[\w-]{43}$/),
      handoff_expires_at: new Date(ctx.clock.now().getTime() + 30 * 60_000).toISOString(),
      capture_url: `${ctx.app.config.PUBLIC_URL}/capture#${link.handoff_token}`,
    });
    expect((await api(ctx).status(link.handoff_token)).statusCode).toBe(200);
    expect((await api(ctx).status(started.handoff_token)).statusCode).toBe(401);
    const issued = (await trail(started.id)).filter((r) => r.type === 'handoff.issued');
    expect(issued.map((r) => r.actor)).toEqual(['operator', 'operator']);
  });

  it('answers 404 for another profile’s verification, an unknown or malformed id, and 409/410 for what cannot be done', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9403);
    const other = await identityTenant(ctx);
    const before = (await trail(id)).length;
    // A malformed profile id is not found either (it once reached the database as a uuid and answered 500).
    const malformedProfiles = [base(id, '%20'), base(id, 'not-a-profile')];
    for (const path of [
      base(id, other.profileId),
      base('00000000-0000-4000-8000-000000000000'),
      base('not-a-uuid'),
      ...malformedProfiles,
    ]) {
      expect(await ctx.admin('GET', path, undefined, 404)).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      await ctx.admin('POST', `${path}/capture-link`, undefined, 404);
      expect((await image(`${path}/images/document`)).statusCode).toBe(404);
    }
    expect((await trail(id)).length).toBe(before);
    // Capture is complete: no new link.
    const complete = await ctx.admin('POST', `${base(id)}/capture-link`, undefined, 409);
    expect(complete.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/Capture is complete/) });
    // Erased: the detail still answers, without images; images answer 410 GONE.
    await api(ctx).call('DELETE', `/v1/verifications/${id}`, tenant.backend, undefined, 200);
    const erased = (await ctx.admin('GET', base(id), undefined, 200)).data;
    expect(erased.verification).toMatchObject({ id, erased: true });
    expect(erased.images).toEqual({ document: null, document_back: null, steps: [] });
    expect((await image(`${base(id)}/images/document`)).json()).toMatchObject({ success: false, error: { code: 'GONE' } });
    const anonymous = await ctx.app.inject({ method: 'GET', url: `/admin/v1${base(id)}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
