import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, file, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

describe('identity capture flow: document, challenge, selfie frames, resume after every 409', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('creates a verification with a 43-character URL-safe handoff token valid 30 minutes', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    expect(Object.keys(v).sort()).toEqual([
      'capture_url',
      'created_at',
      'handoff_expires_at',
      'handoff_token',
      'id',
      'reference',
      'return_url',
      'status',
      'webhook_url',
    ]);
    expect(v.return_url).toBeNull();
    expect(v.status).toBe('awaiting_capture');
    expect(v.reference).toBe('order-42');
    expect(v.handoff_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(v.handoff_expires_at).getTime() - new Date(v.created_at).getTime()).toBe(30 * 60 * 1000);
    expect(v.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const read = (await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
    expect(read).toMatchObject({ id: v.id, status: 'awaiting_capture', stage: 'document', erased: false });
  });

  it('refuses a webhook_url that is not HTTPS with 422 {detail}', async () => {
    const a = api(ctx);
    for (const webhook_url of ['http://backend.example.com/hook', 'ftp://x.example.com', 'not a url', '']) {
      const res = await a.call('POST', '/v1/verifications', tenant.backend, { webhook_url }, 422);
      expect(Object.keys(res.json())).toEqual(['detail']);
    }
    await a.call('POST', '/v1/verifications', tenant.backend, {}, 422);
  });

  it('walks the capture with status and next_step at every stage, and answers each 409 with a resumable status', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    const token = v.handoff_token;
    expect((await a.status(token)).json()).toEqual({
      verification_id: v.id,
      stage: 'document',
      next_step: { type: 'document' },
      uploaded_steps: [],
      requester: { name: expect.stringMatching(/^Tenant /), privacy_policy_url: null },
      return_url: null,
    });

    // Challenge and selfie before the document: 409, then the status says "document".
    expect((await a.challenge(token)).statusCode).toBe(409);
    const early = await a.upload('selfie', token, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 9 }))]);
    expect(early.statusCode).toBe(409);
    expect(Object.keys(early.json())).toEqual(['detail']);
    expect((await a.status(token)).json().next_step).toEqual({ type: 'document' });

    const doc = await a.upload('document', token, [{ name: 'mrz', value: passportMrz() }, file(png(640, 480, { seed: 10 }))]);
    expect(doc.statusCode, doc.body).toBe(201);
    expect(doc.json()).toEqual({ stage: 'challenge', next_step: { type: 'challenge' } });

    // A second document: 409, resume says "challenge".
    const again = await a.upload('document', token, [file(png(640, 480, { seed: 11 }))]);
    expect(again.statusCode).toBe(409);
    // A selfie before the challenge was issued: 409.
    expect((await a.upload('selfie', token, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 12 }))])).statusCode).toBe(409);
    expect((await a.status(token)).json()).toMatchObject({ stage: 'challenge', next_step: { type: 'challenge' } });

    const challenge = (await a.challenge(token)).json();
    expect(challenge.steps.length).toBeGreaterThanOrEqual(3);
    expect(challenge.steps.length).toBeLessThanOrEqual(5);
    expect(challenge.steps.map((s: { step: number }) => s.step)).toEqual([...Array(challenge.steps.length).keys()]);
    expect((await a.challenge(token)).json()).toEqual(challenge);
    // This app checks no faces (FACE_CHECKS=off), yet the page gets the thresholds: its pose check guides the person either way.
    expect(challenge.pose_check).toEqual({ yaw_turn: ctx.app.config.FACE_YAW_TURN, yaw_front: ctx.app.config.FACE_YAW_FRONT });
    // Every step names its head pose; one turn each way (docs/faces.md, "Face checks").
    expect(challenge.steps.map((s: { pose: string }) => s.pose).sort()).toEqual(expect.arrayContaining(['front', 'left', 'right']));
    expect(
      challenge.steps
        .filter((s: { pose: string }) => s.pose !== 'front')
        .map((s: { pose: string }) => s.pose)
        .sort(),
    ).toEqual(['left', 'right']);
    const n = challenge.steps.length;

    // Step outside 0..N-1 and non-integer steps: 422; the file is not kept.
    for (const step of ['-1', String(n), 'one', '1.5', '']) {
      const res = await a.upload('selfie', token, [{ name: 'step', value: step }, file(png(640, 480, { seed: 13 }))]);
      expect(res.statusCode, step).toBe(422);
    }
    expect((await a.upload('selfie', token, [file(png(640, 480, { seed: 14 }))])).statusCode).toBe(422);

    // Frame for step 1 first, the file before the step field; then the same step again → 409.
    const first = await a.upload('selfie', token, [file(png(640, 480, { seed: 15 })), { name: 'step', value: '1' }]);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ stage: 'selfie', next_step: { type: 'selfie', step: 0 }, uploaded_steps: [1] });
    const dup = await a.upload('selfie', token, [{ name: 'step', value: '1' }, file(png(640, 480, { seed: 16 }))]);
    expect(dup.statusCode).toBe(409);
    const resume = (await a.status(token)).json();
    expect(resume).toEqual({
      verification_id: v.id,
      stage: 'selfie',
      next_step: { type: 'selfie', step: 0, pose: challenge.steps[0].pose },
      uploaded_steps: [1],
      requester: { name: expect.stringMatching(/^Tenant /), privacy_policy_url: null },
      return_url: null,
    });

    // The device resumes from next_step until done.
    let next = resume.next_step;
    let seed = 20;
    while (next.type === 'selfie') {
      const res = await a.upload('selfie', token, [{ name: 'step', value: String(next.step) }, file(png(640, 480, { seed: seed++ }))]);
      expect(res.statusCode, res.body).toBe(201);
      next = res.json().next_step;
    }
    expect(next).toEqual({ type: 'done' });
    const done = (await a.status(token)).json();
    expect(done).toMatchObject({ stage: 'complete', next_step: { type: 'done' } });
    expect(done.uploaded_steps).toEqual([...Array(n).keys()]);
    // After the last frame: processing, and every further upload is a 409.
    expect((await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().status).toBe('processing');
    expect((await a.upload('selfie', token, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 99 }))])).statusCode).toBe(409);
    expect((await a.upload('document', token, [file(png(640, 480, { seed: 98 }))])).statusCode).toBe(409);

    const decided = await settle(ctx, tenant.backend, v.id);
    expect(decided).toMatchObject({ status: 'approved', decision_reason: null });
  });

  describe('the decision pipeline, each outcome on purpose', () => {
    it('approves a clean capture, with or without an MRZ', async () => {
      const withMrz = await captureAll(ctx, tenant.backend);
      expect((await settle(ctx, tenant.backend, withMrz.id)).status).toBe('approved');
      const withoutMrz = await captureAll(ctx, tenant.backend, { mrz: null });
      expect((await settle(ctx, tenant.backend, withoutMrz.id)).status).toBe('approved');
    });

    it('declines failing MRZ check digits', async () => {
      const v = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ breakCheckDigit: true }) });
      expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'mrz_check_digits_invalid' });
    });

    it('declines an expired document (by the clock)', async () => {
      const v = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ expiry: '261121' }) });
      expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'document_expired' });
      const today = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ expiry: '261122' }) });
      expect((await settle(ctx, tenant.backend, today.id)).status).toBe('approved');
    });

    it('declines byte-identical selfie frames (a replayed frame)', async () => {
      const frame = png(640, 480, { seed: 4242 });
      const v = await captureAll(ctx, tenant.backend, { frames: () => frame });
      expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'replayed_frame' });
    });

    it('declines an image smaller than 320×240 stored before uploads refused them', async () => {
      // Uploads refuse such images now (test/identity/uploads.test.ts); one stored earlier is still declined.
      const v = await captureAll(ctx, tenant.backend);
      await ctx.app.db.execute(sql`update identity_verifications set document_height = 239 where id = ${v.id}`);
      expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'image_too_small' });
    });

    it('sends a document image already used by another verification to manual_review', async () => {
      const document = png(800, 600, { seed: 777 });
      const first = await captureAll(ctx, tenant.backend, { document });
      expect((await settle(ctx, tenant.backend, first.id)).status).toBe('approved');
      const second = await captureAll(ctx, tenant.backend, { document });
      expect(await settle(ctx, tenant.backend, second.id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_reused' });
    });
  });
});
