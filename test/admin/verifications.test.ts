import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { api, file, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { useTestApp } from '../helpers/suite.js';

describe('POST /admin/v1/profiles/{id}/verifications: the operator starts a verification', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('answers a capture link whose token opens the capture flow, and the verification is the profile’s', async () => {
    const started = await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { reference: 'walk-in 7' }, 201);
    expect(started.data).toMatchObject({
      status: 'awaiting_capture',
      reference: 'walk-in 7',
      webhook_url: null,
      handoff_token: expect.stringMatching(/^[\w-]{43}$/),
      handoff_expires_at: new Date(ctx.clock.now().getTime() + 30 * 60_000).toISOString(),
    });
    expect(started.data.capture_url).toBe(`${ctx.app.config.PUBLIC_URL}/capture#${started.data.handoff_token}`);

    const status = await api(ctx).status(started.data.handoff_token);
    expect(status.statusCode, status.body).toBe(200);
    // The partner backend of the same profile sees it; the operator's list does too.
    const read = await api(ctx).call('GET', `/v1/verifications/${started.data.id}`, tenant.backend, undefined, 200);
    expect(read.json()).toMatchObject({ id: started.data.id, status: 'awaiting_capture', reference: 'walk-in 7' });
    const listed = await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`);
    expect(listed.data.items.map((v: { id: string }) => v.id)).toContain(started.data.id);
    // The audit trail names the operator as its creator.
    const actors = rowsOf<{ type: string; actor: string }>(
      await ctx.app.db.execute(sql`select type, actor from identity_audit_events where verification_id = ${started.data.id} order by seq`),
    );
    expect(actors).toEqual([
      { type: 'verification.created', actor: 'operator' },
      { type: 'handoff.issued', actor: 'operator' },
    ]);
  });

  it('is decided like any other once captured, and sends no decision webhook when none was asked for', async () => {
    const started = (await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, {}, 201)).data;
    const token = started.handoff_token as string;
    const a = api(ctx);
    const doc = await a.upload('document', token, [file(png(640, 480, { seed: 4242 })), { name: 'mrz', value: passportMrz() }]);
    expect(doc.statusCode, doc.body).toBe(201);
    const challenge = (await a.challenge(token)).json();
    for (const { step } of challenge.steps) {
      const res = await a.upload('selfie', token, [{ name: 'step', value: String(step) }, file(png(640, 480, { seed: 5000 + step }))]);
      expect(res.statusCode, res.body).toBe(201);
    }
    const decided = await settle(ctx, tenant.backend, started.id);
    expect(['approved', 'declined', 'manual_review']).toContain(decided.status);
    expect(decided.status).not.toBe('awaiting_capture');
    const outbox = await ctx.admin('GET', `/webhook-deliveries?profileId=${tenant.profileId}`);
    expect(outbox.data.items).toEqual([]);
  });

  it('refuses what it cannot start, in the operator envelope, and writes nothing', async () => {
    const before = (await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`)).data.total;
    await ctx.admin('POST', '/profiles/00000000-0000-4000-8000-000000000000/verifications', {}, 404);
    await ctx.admin('POST', '/profiles/not-a-uuid/verifications', {}, 404);
    const unknownField = await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { refrence: 'typo' }, 400);
    expect(unknownField).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    const http = await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { webhook_url: 'http://example.com/hook' }, 400);
    expect(http.error.details).toEqual([{ path: 'body.webhook_url', message: 'webhook_url must be an HTTPS address' }]);
    const blank = await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { reference: '   ' }, 400);
    expect(blank.error.details[0].path).toBe('body.reference');
    const anonymous = await ctx.app.inject({ method: 'POST', url: `/admin/v1/profiles/${tenant.profileId}/verifications`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect((await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`)).data.total).toBe(before);
  });
});
