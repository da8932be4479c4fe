import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { identityAuditEvents, identityFrames } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { png } from '../../scripts/fixtures/images.js';
import { api, captureAll, file, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { useTestApp } from '../helpers/suite.js';

/** docs/identity.md "Consent and capture": the consent screen's "No, thanks", frames chosen from a file, and capture started again. */
describe('capture consent, frame source and restart', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  const trail = async (id: string) => {
    const rows = await ctx.app.db
      .select()
      .from(identityAuditEvents)
      .where(eq(identityAuditEvents.verificationId, id))
      .orderBy(identityAuditEvents.seq);
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
    return rows;
  };
  const profilePath = () => `/profiles/${tenant.profileId}`;
  const casePath = (id: string) => `/profiles/${tenant.profileId}/verifications/${id}`;

  describe('privacyPolicyUrl', () => {
    it('is an https address set on the profile and shown to the capture page', async () => {
      const set = await ctx.admin('PATCH', profilePath(), { privacyPolicyUrl: 'https://shop.example/privacy' }, 200);
      expect(set.data.privacyPolicyUrl).toBe('https://shop.example/privacy');
      const v = await api(ctx).createVerification(tenant.backend);
      const status = (await api(ctx).status(v.handoff_token)).json();
      expect(status.requester).toEqual({ name: expect.any(String), privacy_policy_url: 'https://shop.example/privacy' });
      // null removes it; the page then shows its own summary without a link.
      expect((await ctx.admin('PATCH', profilePath(), { privacyPolicyUrl: null }, 200)).data.privacyPolicyUrl).toBeNull();
      expect((await api(ctx).status(v.handoff_token)).json().requester.privacy_policy_url).toBeNull();
    });

    // The operator API answers invalid input with 400 VALIDATION_ERROR (src/admin/README.md), as for every other profile field.
    it.each([
      ['plain http', 'http://shop.example/privacy'],
      ['a javascript: address', 'javascript:alert(1)'],
      ['no address', 'not a url'],
      ['over 2048 characters', `https://x.example/${'a'.repeat(2050)}`],
      ['a number', 42],
    ])('refuses %s with 400 and keeps the setting', async (_label, bad) => {
      await ctx.admin('PATCH', profilePath(), { privacyPolicyUrl: 'https://shop.example/kept' }, 200);
      const res = await ctx.admin('PATCH', profilePath(), { privacyPolicyUrl: bad }, 400);
      expect(res.error.details[0].path).toBe('body.privacyPolicyUrl');
      expect((await ctx.admin('GET', profilePath(), undefined, 200)).data.privacyPolicyUrl).toBe('https://shop.example/kept');
    });
  });

  describe('POST /v1/capture/consent/decline', () => {
    it('records the decline, keeps the status, ends the link; a new link asks again', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const res = await a.call('POST', '/v1/capture/consent/decline', v.handoff_token, undefined, 200);
      expect(res.json()).toEqual({ verification_id: v.id, consent_declined_at: ctx.clock.now().toISOString() });
      const read = (await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
      expect(read).toMatchObject({ status: 'awaiting_capture', stage: 'document', consent_declined_at: ctx.clock.now().toISOString() });
      expect((await trail(v.id)).map((e) => [e.type, e.actor])).toContainEqual(['capture.consent_declined', 'device']);
      // The link stopped working: a second decline or any capture call is 401.
      await a.call('POST', '/v1/capture/consent/decline', v.handoff_token, undefined, 401);
      expect((await a.status(v.handoff_token)).statusCode).toBe(401);
      // The partner (or the operator) issues a new link: the person is asked again.
      const fresh = (await a.call('POST', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 201)).json();
      expect((await a.status(fresh.handoff_token)).statusCode).toBe(200);
      expect((await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().consent_declined_at).toBeNull();
    });

    it('answers 409 once the document was sent, and 401 without a valid token', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const doc = await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 71 })), { name: 'mrz', value: passportMrz() }]);
      expect(doc.statusCode, doc.body).toBe(201);
      await a.call('POST', '/v1/capture/consent/decline', v.handoff_token, undefined, 409);
      await a.call('POST', '/v1/capture/consent/decline', null, undefined, 401);
      await a.call('POST', '/v1/capture/consent/decline', 'x'.repeat(43), undefined, 401);
      const read = (await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
      expect(read.consent_declined_at).toBeNull();
      expect((await trail(v.id)).map((e) => e.type)).not.toContain('capture.consent_declined');
    });
  });

  describe('frame source', () => {
    it('stores `file` when the page says so, `camera` by default, and shows it in the signals’ source and both case views', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const token = v.handoff_token as string;
      expect(
        (await a.upload('document', token, [file(png(640, 480, { seed: 81 })), { name: 'mrz', value: passportMrz() }])).statusCode,
      ).toBe(201);
      const challenge = (await a.challenge(token)).json();
      const salt = randomBytes(4).readUInt32BE();
      for (const { step } of challenge.steps) {
        const parts = [
          { name: 'step', value: String(step) },
          ...(step === 1 ? [{ name: 'source', value: 'file' }] : []),
          file(png(640, 480, { seed: salt + step })),
        ];
        const res = await a.upload('selfie', token, parts);
        expect(res.statusCode, res.body).toBe(201);
      }
      const frames = await ctx.app.db.select().from(identityFrames).where(eq(identityFrames.verificationId, v.id));
      expect(frames.map((f) => [f.step, f.source]).sort()).toEqual(
        challenge.steps.map((s: { step: number }) => [s.step, s.step === 1 ? 'file' : 'camera']),
      );
      const uploaded = (await trail(v.id))
        .filter((e) => e.type === 'capture.frame_uploaded')
        .map((e) => (e.data as { source: string }).source);
      expect(uploaded).toContain('file');
      const detail = (await ctx.admin('GET', casePath(v.id), undefined, 200)).data;
      expect(detail.images.steps.map((s: { source: string }) => s.source)).toEqual(
        challenge.steps.map((s: { step: number }) => (s.step === 1 ? 'file' : 'camera')),
      );
      // Put in review so the reviewer's case view opens; its steps carry the source too.
      await settle(ctx, tenant.backend, v.id);
      await ctx.app.db.execute(
        sql`update identity_verifications set status = 'manual_review', decision_reason = 'face_match_uncertain' where id = ${v.id}`,
      );
      const review = (await a.call('GET', `/v1/review/${v.id}`, tenant.reviewer, undefined, 200)).json();
      expect(review.steps.find((s: { step: number }) => s.step === 1).source).toBe('file');
      expect(review.steps.find((s: { step: number }) => s.step === 0).source).toBe('camera');
    });

    it('refuses another source with 422 and stores nothing', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const token = v.handoff_token as string;
      await a.upload('document', token, [file(png(640, 480, { seed: 91 })), { name: 'mrz', value: passportMrz() }]);
      await a.challenge(token);
      const res = await a.upload('selfie', token, [
        { name: 'step', value: '0' },
        { name: 'source', value: 'gallery' },
        file(png(640, 480, { seed: 92 })),
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/source/);
      expect(await ctx.app.db.select().from(identityFrames).where(eq(identityFrames.verificationId, v.id))).toEqual([]);
    });
  });

  describe('POST /admin/v1/profiles/{id}/verifications/{verificationId}/capture-restart', () => {
    /** A decided verification declined for image quality, as the pipeline decides for stored images under 320×240. */
    const declinedForQuality = async (reason = 'image_too_small') => {
      const { id, token } = await captureAll(ctx, tenant.backend);
      await settle(ctx, tenant.backend, id);
      await ctx.app.db.execute(
        sql`update identity_verifications set status = 'declined', decision_reason = ${reason}, decided_at = now() where id = ${id}`,
      );
      return { id, token };
    };

    it('starts capture over: images gone, back to awaiting_capture, a new link, audit capture.restarted', async () => {
      const { id, token } = await declinedForQuality();
      const before = (await ctx.admin('GET', casePath(id), undefined, 200)).data;
      expect(before.can_restart_capture).toBe(true);
      const blobKeys = (await ctx.app.db.select().from(identityFrames).where(eq(identityFrames.verificationId, id))).map((f) => f.blobKey);
      expect(blobKeys.length).toBeGreaterThan(0);

      const res = await ctx.admin('POST', `${casePath(id)}/capture-restart`, undefined, 200);
      expect(res.data).toMatchObject({
        verification_id: id,
        handoff_token: expect.any(String),
        capture_url: expect.stringContaining('/capture#'),
      });
      const read = (await api(ctx).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
      expect(read).toMatchObject({
        status: 'awaiting_capture',
        stage: 'document',
        decision_reason: null,
        decided_at: null,
        document: null,
      });
      for (const key of blobKeys) await expect(ctx.app.blobs.get(key)).rejects.toThrow();
      expect(await ctx.app.db.select().from(identityFrames).where(eq(identityFrames.verificationId, id))).toEqual([]);
      const restarted = (await trail(id)).find((e) => e.type === 'capture.restarted');
      expect(restarted).toMatchObject({ actor: 'operator', data: { previous_status: 'declined', previous_reason: 'image_too_small' } });
      // The old link is dead; the new one starts at the document, and the whole capture runs again.
      expect((await api(ctx).status(token)).statusCode).toBe(401);
      const status = (await api(ctx).status(res.data.handoff_token)).json();
      expect(status.next_step).toEqual({ type: 'document' });
      const doc = await api(ctx).upload('document', res.data.handoff_token, [
        file(png(640, 480, { seed: 4242 })),
        { name: 'mrz', value: passportMrz() },
      ]);
      expect(doc.statusCode, doc.body).toBe(201);
      expect((await ctx.admin('GET', casePath(id), undefined, 200)).data.can_restart_capture).toBe(false);
    });

    it.each([['no_face_document'], ['no_face_selfie']])('restarts a decline for %s too', async (reason) => {
      const { id } = await declinedForQuality(reason);
      await ctx.admin('POST', `${casePath(id)}/capture-restart`, undefined, 200);
    });

    it('answers 409 for a decline about the person, a verification still capturing or approved; 404 for another profile', async () => {
      const { id } = await declinedForQuality('document_expired');
      expect((await ctx.admin('GET', casePath(id), undefined, 200)).data.can_restart_capture).toBe(false);
      const refused = await ctx.admin('POST', `${casePath(id)}/capture-restart`, undefined, 409);
      expect(JSON.stringify(refused)).toMatch(/image_too_small/);
      expect((await api(ctx).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json()).toMatchObject({
        status: 'declined',
        decision_reason: 'document_expired',
      });
      const open = await api(ctx).createVerification(tenant.backend);
      await ctx.admin('POST', `${casePath(open.id)}/capture-restart`, undefined, 409);
      const other = await ctx.admin('POST', '/profiles', { name: 'Other', plan: 'FREE' }, 201);
      await ctx.admin('POST', `/profiles/${other.data.id}/verifications/${id}/capture-restart`, undefined, 404);
      expect((await trail(id)).map((e) => e.type)).not.toContain('capture.restarted');
    });
  });
});
