import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { identityAuditEvents } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { approvalToMatch, decidedBefore, zoneDifference, type PriorDecision } from '../../src/identity/four-eyes.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant, passportMrz } from '../helpers/identity.js';

const NOTE = 'Compared the portrait with every frame by hand.';

/** The types of the decision webhooks queued for one verification, sorted (the test clock stands still). */
async function webhookTypes(ctx: Parameters<typeof api>[0], id: string): Promise<string[]> {
  const rows = rowsOf<{ type: string }>(
    await ctx.app.db.execute(sql`select type from webhook_events where body->'data'->>'verification_id' = ${id} order by type`),
  );
  return rows.map((r) => r.type);
}

describe('four-eyes review, per profile', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  const reviewers: { key: string; keyId: string }[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) reviewers.push(await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer' }));
  });
  const first = () => reviewers[0]!;
  const second = () => reviewers[1]!;
  const third = () => reviewers[2]!;
  const decide = (who: { key: string }, id: string, decision: 'approve' | 'decline', status?: number) =>
    api(ctx).call('POST', `/v1/review/${id}`, who.key, { decision, note: NOTE }, status);
  const queueItem = async (id: string) =>
    (await api(ctx).call('GET', '/v1/review', first().key, undefined, 200)).json().items.find((i: { id: string }) => i.id === id);
  const auditTypes = async (id: string) =>
    (await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id)))
      .sort((a, b) => a.seq - b.seq)
      .map((r) => [r.type, r.actor]);

  it('is single by default, shown on the profile, and set with PATCH /admin/v1/profiles/{id}', async () => {
    expect((await ctx.admin('GET', `/profiles/${tenant.profileId}`)).data.reviewPolicy).toBe('single');
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/admin/v1/profiles/${tenant.profileId}`,
      headers: { authorization: `Bearer ${ctx.env.ADMIN_TOKEN}` },
      payload: { reviewPolicy: 'three_eyes' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    const set = await ctx.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' });
    expect(set.data).toMatchObject({ id: tenant.profileId, reviewPolicy: 'four_eyes' });
    expect((await ctx.admin('GET', `/profiles/${tenant.profileId}`)).data.reviewPolicy).toBe('four_eyes');
  });

  it('under single, one decision is final and the queue marks nothing', async () => {
    const other = await identityTenant(ctx);
    const { id } = await captureIntoManualReview(ctx, other.backend, 9100);
    const item = (await api(ctx).call('GET', '/v1/review', other.reviewer, undefined, 200)).json().items[0];
    expect(item).toMatchObject({ id, awaiting_second_review: false, review_disagreement: false, decisions: [] });
    expect((await decide({ key: other.reviewer }, id, 'approve', 200)).json().verification.status).toBe('approved');
  });

  it('records the first decision, refuses the same key again (409), and makes a second key’s agreement final', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9101);
    const before = await webhookTypes(ctx, id);
    expect(before).toEqual(['verification.manual_review']);

    const firstAnswer = (await decide(first(), id, 'approve', 200)).json();
    expect(firstAnswer.verification).toMatchObject({ id, status: 'manual_review' });
    expect(await queueItem(id)).toMatchObject({
      awaiting_second_review: true,
      review_disagreement: false,
      decisions: [{ reviewer: `reviewer:${first().keyId}`, decision: 'approve', decided_at: ctx.clock.now().toISOString() }],
    });
    const again = await decide(first(), id, 'approve', 409);
    expect(Object.keys(again.json())).toEqual(['detail']);
    expect(await decide(first(), id, 'decline', 409)).toBeTruthy();
    expect(await webhookTypes(ctx, id)).toEqual(before);

    const final = (await decide(second(), id, 'approve', 200)).json();
    expect(final.verification).toMatchObject({ id, status: 'approved', decision_reason: 'reviewer_approved' });
    expect(await queueItem(id)).toBeUndefined();
    expect(await webhookTypes(ctx, id)).toEqual(['verification.approved', 'verification.manual_review']);
    expect((await auditTypes(id)).slice(-3)).toEqual([
      ['review.first_decision', `reviewer:${first().keyId}`],
      ['review.decided', `reviewer:${second().keyId}`],
      ['verification.approved', `reviewer:${second().keyId}`],
    ]);
    // The case view shows both decisions.
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, third().key, undefined, 200)).json();
    expect(view).toMatchObject({ status: 'approved', awaiting_second_review: false, review_disagreement: false });
    expect(view.decisions.map((d: { reviewer: string }) => d.reviewer)).toEqual([
      `reviewer:${first().keyId}`,
      `reviewer:${second().keyId}`,
    ]);
  });

  it("shows a reviewer key's name beside its id in the queue, the case's decisions and its audit trail", async () => {
    const named = await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Dana Reviewer' });
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9103);
    await decide(named, id, 'decline', 200);
    expect((await queueItem(id)).decisions).toEqual([
      {
        reviewer: `reviewer:${named.keyId}`,
        reviewer_name: 'Dana Reviewer',
        decision: 'decline',
        decline_reasons: [],
        decided_at: expect.any(String),
      },
    ]);
    await decide(first(), id, 'decline', 200);
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, second().key, undefined, 200)).json();
    expect(view.decisions.map((d: { reviewer_name: string | null }) => d.reviewer_name)).toEqual(['Dana Reviewer', null]);
    const actors = view.audit.filter((e: { actor: string }) => e.actor.startsWith('reviewer:'));
    // The actor stays the key id (the audit chain is unchanged); the name is beside it.
    expect(actors).toContainEqual(
      expect.objectContaining({ type: 'review.first_decision', actor: `reviewer:${named.keyId}`, actor_name: 'Dana Reviewer' }),
    );
    expect(actors).toContainEqual(
      expect.objectContaining({ type: 'review.decided', actor: `reviewer:${first().keyId}`, actor_name: null }),
    );
    expect(view.audit.find((e: { type: string }) => e.type === 'verification.created').actor_name).toBeNull();
  });

  it('stores the reasons of a decline and shows them with the decision; refuses reasons with an approval and unknown reasons', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9104);
    const note = { note: NOTE };
    const refused = await api(ctx).call(
      'POST',
      `/v1/review/${id}`,
      first().key,
      { decision: 'approve', decline_reasons: ['face_mismatch'], ...note },
      422,
    );
    expect(refused.json()).toEqual({ detail: expect.stringContaining('decline_reasons') });
    for (const decline_reasons of [['too_blurry'], ['face_mismatch', 'face_mismatch'], 'face_mismatch']) {
      const bad = await api(ctx).call('POST', `/v1/review/${id}`, first().key, { decision: 'decline', decline_reasons, ...note });
      expect(bad.statusCode, JSON.stringify(decline_reasons)).toBe(422);
    }
    // Nothing was recorded by the refused calls.
    expect((await queueItem(id)).decisions).toEqual([]);
    await api(ctx).call(
      'POST',
      `/v1/review/${id}`,
      first().key,
      { decision: 'decline', decline_reasons: ['face_mismatch', 'not_a_live_person'], ...note },
      200,
    );
    expect((await queueItem(id)).decisions).toMatchObject([
      { decision: 'decline', decline_reasons: ['face_mismatch', 'not_a_live_person'] },
    ]);
    await decide(second(), id, 'decline', 200);
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, third().key, undefined, 200)).json();
    expect(view.status).toBe('declined');
    expect(view.decisions.map((d: { decline_reasons: string[] }) => d.decline_reasons)).toEqual([
      ['face_mismatch', 'not_a_live_person'],
      [],
    ]);
  });

  it('keeps a disagreement in the queue; neither of the two may decide again, and a third key decides', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9102);
    await decide(first(), id, 'approve', 200);
    const disagreeing = (await decide(second(), id, 'decline', 200)).json();
    expect(disagreeing.verification.status).toBe('manual_review');
    expect(await queueItem(id)).toMatchObject({
      awaiting_second_review: false,
      review_disagreement: true,
      decisions: [
        { reviewer: `reviewer:${first().keyId}`, decision: 'approve' },
        { reviewer: `reviewer:${second().keyId}`, decision: 'decline' },
      ],
    });
    await decide(first(), id, 'decline', 409);
    await decide(second(), id, 'approve', 409);
    expect(await webhookTypes(ctx, id)).toEqual(['verification.manual_review']);

    expect((await decide(third(), id, 'decline', 200)).json().verification.status).toBe('declined');
    expect(await webhookTypes(ctx, id)).toEqual(['verification.declined', 'verification.manual_review']);
    expect((await auditTypes(id)).filter(([type]) => type!.startsWith('review.'))).toEqual([
      ['review.first_decision', `reviewer:${first().keyId}`],
      ['review.disagreement', `reviewer:${second().keyId}`],
      ['review.decided', `reviewer:${third().keyId}`],
    ]);
    const rows = await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id));
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
    // Decided: every later decision is refused as before.
    await decide(third(), id, 'approve', 409);
  });

  it('lets exactly one of two racing second decisions be final', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9103);
    await decide(first(), id, 'decline', 200);
    const [x, y] = await Promise.all([decide(second(), id, 'decline'), decide(third(), id, 'decline')]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    expect(await webhookTypes(ctx, id)).toEqual(['verification.declined', 'verification.manual_review']);
  });
});

describe('four-eyes rules (pure)', () => {
  const at = new Date('2026-11-27T10:00:00.000Z');
  const decision = (reviewerKeyId: string, d: 'approve' | 'decline', extra: Partial<PriorDecision> = {}): PriorDecision => ({
    reviewerKeyId,
    decision: d,
    createdAt: at,
    ...extra,
  });

  it('counts keys of one holder as one reviewer, ignoring case and spacing; a key without holder is its own', () => {
    const prior = [decision('key-a', 'approve', { reviewerHolder: 'Dana  Adeyemi' })];
    expect(decidedBefore(prior, 'key-b', ' dana adeyemi')).toBe(true);
    expect(decidedBefore(prior, 'key-b', 'Dana Adeyemi-Okafor')).toBe(false);
    expect(decidedBefore(prior, 'key-b', null)).toBe(false);
    expect(decidedBefore([decision('key-a', 'approve')], 'key-a', null)).toBe(true);
    // A holder never matches a key id spelled as a holder.
    expect(decidedBefore([decision('key-a', 'approve')], 'key-b', 'key-a')).toBe(false);
  });

  it('binds a deciding approval to the earliest approval under four_eyes only', () => {
    const prior = [decision('a', 'decline'), decision('b', 'approve', { mrz: 'ZONE-B' })];
    expect(approvalToMatch('four_eyes', prior)?.reviewerKeyId).toBe('b');
    expect(approvalToMatch('four_eyes', [decision('a', 'decline')])).toBeUndefined();
    expect(approvalToMatch('single', prior)).toBeUndefined();
  });

  it('says how a zone differs from the first approval’s without any of its characters', () => {
    const printed = passportMrz();
    expect(zoneDifference(null, null)).toBeNull();
    expect(zoneDifference(printed, printed)).toBeNull();
    expect(zoneDifference(null, printed)).toBe('The first approval carried no machine-readable zone and this approval carries one');
    expect(zoneDifference(printed, null)).toBe('The first approval carried a machine-readable zone (TD3) and this approval carries none');
    const other = passportMrz({ number: 'Y98765432', birth: '851230' });
    const words = zoneDifference(printed, other)!;
    // X12345678 against Y98765432: the 5 in the middle is shared, so position 6 is not named.
    expect(words).toBe(
      'The first approval carried a different machine-readable zone (TD3; they differ at line 2, characters 1, 2, 3, 4, 5, 7, 8, 9 and 9 more)',
    );
    const td1 = ['I<NLDX123456784<<<<<<<<<<<<<<<', '9001151F3101015NLD<<<<<<<<<<<4', 'DOE<<JANE<<<<<<<<<<<<<<<<<<<<<'].join('\n');
    expect(zoneDifference(printed, td1)).toBe('The first approval carried a different machine-readable zone (TD3; this one is TD1)');
    for (const personal of ['X12345678', 'Y98765432', '900115', '851230', 'DOE', 'JANE']) {
      for (const text of [words, zoneDifference(printed, td1), zoneDifference(printed, null)]) expect(text).not.toContain(personal);
    }
  });
});
