import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { identityAuditEvents } from '../../src/db/schema/identity.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { FOUR_EYES_ZONES, zoneSeenByTheReader } from '../helpers/zones.js';

const NOTE = 'Compared the zone with the data page by hand.';
const { READ, FIRST, PRINTED } = FOUR_EYES_ZONES;
/** What of the zones is personal (a name, the document number, a birth date): never in a `detail`, a log line or the audit chain. */
const PERSONAL = ['DOE', 'JANE', 'X12345678', '900115'];

/**
 * Four-eyes review of the zone (docs/identity.md, Four-eyes review): the deciding approval carries the same
 * zone as the first approval, or none when it carried none; until then the first approval's zone
 * stays with that decision and the case view shows it beside the zone read. And two keys of one
 * holder are one reviewer.
 */
describe('four-eyes review: the zone of the first approval binds the deciding approval', () => {
  const logLines: string[] = [];
  const { ctx, tenant } = useTestApp(
    () => ({ env: { ...HIGH_LIMITS, LOG_LEVEL: 'trace' }, logStream: { write: (line: string) => void logLines.push(line) } }),
    { tenant: identityTenant },
  );
  const keys: { key: string; keyId: string }[] = [];
  beforeAll(async () => {
    await ctx.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' });
    for (let i = 0; i < 3; i++) keys.push(await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer' }));
  });
  const first = () => keys[0]!;
  const second = () => keys[1]!;
  const third = () => keys[2]!;
  const decide = (who: { key: string }, id: string, body: { decision: 'approve' | 'decline'; mrz?: string }, status?: number) =>
    api(ctx).call('POST', `/v1/review/${id}`, who.key, { note: NOTE, ...body }, status);
  const caseView = async (who: { key: string }, id: string) =>
    (await api(ctx).call('GET', `/v1/review/${id}`, who.key, undefined, 200)).json();
  const verification = async (id: string) => (await api(ctx).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
  const reviewEvents = async (id: string) =>
    (await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id)))
      .sort((a, b) => a.seq - b.seq)
      .filter((e) => e.type.startsWith('review.') && e.type !== 'review.case_viewed')
      .map((e) => ({ type: e.type, data: e.data }));

  it('keeps the first approval’s zone with its decision: the verification’s zone is unchanged and the case view shows both', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9511);
    await zoneSeenByTheReader(ctx, id, READ);
    const before = (await verification(id)).document;

    const answer = await decide(first(), id, { decision: 'approve', mrz: FIRST }, 200);
    expect(answer.json().verification.status).toBe('manual_review');
    // Not the verification's zone yet: the first reviewer's entry waits for the second reviewer.
    expect((await verification(id)).document).toEqual(before);
    expect(before.mrz_source).toBe('typed');

    const seen = await caseView(second(), id);
    expect(seen.document.mrz).toMatchObject({ source: 'typed', expirationDate: '310101', lines: READ });
    expect(seen.first_approval).toEqual({
      reviewer: `reviewer:${first().keyId}`,
      reviewer_name: null,
      decided_at: ctx.clock.now().toISOString(),
      mrz: expect.objectContaining({ lines: FIRST, expirationDate: '320101', documentNumber: 'X12345678' }),
    });
  });

  it('refuses a deciding approval with another zone (409, no personal data in the detail); the case stays in review; the same zone decides', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9512);
    await decide(first(), id, { decision: 'approve', mrz: FIRST }, 200);

    const refused = await decide(second(), id, { decision: 'approve', mrz: PRINTED }, 409);
    expect(Object.keys(refused.json())).toEqual(['detail']);
    const detail = refused.json().detail as string;
    expect(detail).toMatch(/first approval carried a different machine-readable zone/);
    expect(detail).toMatch(/\(TD3; they differ at line 2, characters 23 and 28\)/);
    expect(detail).toMatch(/first_approval/);
    for (const personal of PERSONAL) expect(detail).not.toContain(personal);

    const stays = await caseView(third(), id);
    expect(stays).toMatchObject({ status: 'manual_review', awaiting_second_review: true, review_disagreement: false });
    expect(stays.decisions).toHaveLength(1);
    expect(stays.first_approval.mrz.lines).toBe(FIRST);
    expect((await verification(id)).document.mrz_source).toBe('typed');

    // The same lines, typed in lower case with spaces, are the same zone once normalised.
    const same = FIRST.toLowerCase().replace(/<</g, '< <');
    const final = await decide(second(), id, { decision: 'approve', mrz: same }, 200);
    expect(final.json().verification.status).toBe('approved');
    expect((await verification(id)).document).toMatchObject({ mrz_source: 'reviewer', expires_on: '2032-01-01' });
    expect((await caseView(third(), id)).first_approval).toBeNull();
  });

  it('refuses a zone when the first approval carried none, and none when it carried one', async () => {
    const none = (await captureIntoManualReview(ctx, tenant.backend, 9513)).id;
    await decide(first(), none, { decision: 'approve' }, 200);
    expect((await caseView(second(), none)).first_approval.mrz).toBeNull();
    const withZone = await decide(second(), none, { decision: 'approve', mrz: PRINTED }, 409);
    expect(withZone.json().detail).toMatch(/first approval carried no machine-readable zone/);
    expect((await decide(second(), none, { decision: 'approve' }, 200)).json().verification.status).toBe('approved');
    expect((await verification(none)).document.mrz_source).toBe('typed');

    const one = (await captureIntoManualReview(ctx, tenant.backend, 9514)).id;
    await decide(first(), one, { decision: 'approve', mrz: FIRST }, 200);
    const without = await decide(second(), one, { decision: 'approve' }, 409);
    expect(without.json().detail).toMatch(/first approval carried a machine-readable zone \(TD3\) and this approval carries none/);
    for (const personal of PERSONAL) expect(without.json().detail).not.toContain(personal);
  });

  it('binds the third reviewer after a disagreement to the zone of the approval before it', async () => {
    const approvedFirst = (await captureIntoManualReview(ctx, tenant.backend, 9515)).id;
    await decide(first(), approvedFirst, { decision: 'approve', mrz: FIRST }, 200);
    await decide(second(), approvedFirst, { decision: 'decline' }, 200);
    expect((await caseView(third(), approvedFirst)).first_approval.mrz.lines).toBe(FIRST);
    await decide(third(), approvedFirst, { decision: 'approve', mrz: PRINTED }, 409);
    expect((await decide(third(), approvedFirst, { decision: 'approve', mrz: FIRST }, 200)).json().verification.status).toBe('approved');

    // Declined first: the approval that disagreed is the one the deciding approval must match.
    const declinedFirst = (await captureIntoManualReview(ctx, tenant.backend, 9516)).id;
    await decide(first(), declinedFirst, { decision: 'decline' }, 200);
    await decide(second(), declinedFirst, { decision: 'approve', mrz: PRINTED }, 200);
    expect((await caseView(third(), declinedFirst)).first_approval.reviewer).toBe(`reviewer:${second().keyId}`);
    await decide(third(), declinedFirst, { decision: 'approve', mrz: FIRST }, 409);
    // A decline is never bound by a zone.
    expect((await decide(third(), declinedFirst, { decision: 'decline' }, 200)).json().verification.status).toBe('declined');
  });

  it('records in the audit chain whether each decision carried a zone and whether it matched the first, never the zone itself', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9517);
    await decide(first(), id, { decision: 'approve', mrz: FIRST }, 200);
    await decide(second(), id, { decision: 'approve' }, 409);
    await decide(second(), id, { decision: 'approve', mrz: FIRST }, 200);
    expect(await reviewEvents(id)).toEqual([
      { type: 'review.first_decision', data: expect.objectContaining({ decision: 'approve', mrz: 'attached' }) },
      { type: 'review.mrz_mismatch', data: { decision: 'approve', mrz: 'none', first_approval_mrz: 'attached' } },
      { type: 'review.mrz_confirmed', data: expect.objectContaining({ review_id: expect.any(String) }) },
      { type: 'review.decided', data: expect.objectContaining({ decision: 'approve', mrz: 'attached', mrz_against_first: 'same' }) },
    ]);
    const rows = await ctx.app.db.select().from(identityAuditEvents).where(eq(identityAuditEvents.verificationId, id));
    expect(verifyAuditChain(rows as Parameters<typeof verifyAuditChain>[0])).toBe(true);
    const chain = JSON.stringify(rows.map((r) => r.data));
    for (const personal of PERSONAL) expect(chain).not.toContain(personal);

    // A final decision with no approval before it compares with nothing.
    const alone = (await captureIntoManualReview(ctx, tenant.backend, 9518)).id;
    await decide(first(), alone, { decision: 'decline' }, 200);
    await decide(second(), alone, { decision: 'decline' }, 200);
    expect((await reviewEvents(alone)).map((e) => e.data)).toEqual([
      expect.objectContaining({ decision: 'decline', mrz: 'none' }),
      expect.objectContaining({ decision: 'decline', mrz: 'none', mrz_against_first: null }),
    ]);
  });

  it('writes no zone into the logs, not even at trace level', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const logs = logLines.join('\n');
    for (const personal of PERSONAL) expect(logs).not.toContain(personal);
  });

  it('forgets the first approval’s zone on erasure', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9519);
    await decide(first(), id, { decision: 'approve', mrz: FIRST }, 200);
    await api(ctx).call('DELETE', `/v1/verifications/${id}`, tenant.backend, undefined, 200);
    const rows = rowsOf<{ mrz: string | null }>(
      await ctx.app.db.execute(sql`select mrz from identity_reviews where verification_id = ${id}`),
    );
    expect(rows).toEqual([{ mrz: null }]);
  });
});

describe('four-eyes review: two keys of one holder are one reviewer', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  const reviewer = (holder?: string) =>
    addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer', ...(holder ? { holder } : {}) });
  beforeAll(() => ctx.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' }));
  const decide = (who: { key: string }, id: string, decision: 'approve' | 'decline', status?: number) =>
    api(ctx).call('POST', `/v1/review/${id}`, who.key, { decision, note: NOTE }, status);

  it('refuses the second key of the same holder (409) and offers it no decision; another holder decides', async () => {
    const laptop = await reviewer('Dana Adeyemi');
    // The same person, typed another way: case and spacing do not make a second reviewer.
    const phone = await reviewer('  dana   ADEYEMI ');
    const other = await reviewer('Sam Okafor');
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9531);
    await decide(laptop, id, 'approve', 200);

    const view = (await api(ctx).call('GET', `/v1/review/${id}`, phone.key, undefined, 200)).json();
    expect(view.decided_by_you).toBe(true);
    const again = await decide(phone, id, 'approve', 409);
    expect(again.json()).toEqual({ detail: expect.stringMatching(/holder/) });
    await decide(phone, id, 'decline', 409);
    expect((await api(ctx).call('GET', `/v1/review/${id}`, other.key, undefined, 200)).json().decided_by_you).toBe(false);
    expect((await decide(other, id, 'approve', 200)).json().verification.status).toBe('approved');
  });

  it('counts a key without holder as its own holder, also beside a key that has one', async () => {
    const named = await reviewer('Kim Lee');
    const unheld = await reviewer();
    const otherUnheld = await reviewer();
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9532);
    await decide(unheld, id, 'decline', 200);
    await decide(unheld, id, 'decline', 409);
    expect((await decide(named, id, 'approve', 200)).json().verification.status).toBe('manual_review');
    expect((await decide(otherUnheld, id, 'decline', 200)).json().verification.status).toBe('declined');
  });
});
