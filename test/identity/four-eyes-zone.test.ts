import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { addKey } from '../helpers/tenants.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { FOUR_EYES_ZONES, zoneSeenByTheReader } from '../helpers/zones.js';

const NOTE = 'Compared the zone with the data page by hand.';
const { READ, FIRST, PRINTED } = FOUR_EYES_ZONES;

/**
 * Four-eyes review of the zone (README, Reviewer console and Four-eyes review): the second
 * reviewer's case view keeps `document.mrz.lines` as the text the reader saw, which the console
 * prefills, so the second reviewer confirms the zone from the document, not from the first
 * reviewer's entry (test/web/review-four-eyes-zone.test.ts pins the console's side).
 */
describe("four-eyes review: the second reviewer's case view keeps the zone as read", () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('shows the first reviewer’s zone as the zone on record and the text read as `lines`; the final approval’s zone is the second reviewer’s', async () => {
    await ctx.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' });
    const second = await addKey(ctx, tenant.profileId, { service: 'identity', role: 'reviewer' });
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 9511);
    await zoneSeenByTheReader(ctx, id, READ);

    const first = await api(ctx).call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'approve', note: NOTE, mrz: FIRST }, 200);
    expect(first.json().verification.status).toBe('manual_review');

    const seen = (await api(ctx).call('GET', `/v1/review/${id}`, second.key, undefined, 200)).json().document.mrz;
    expect(seen).toMatchObject({ source: 'reviewer', expirationDate: '320101', lines: READ });

    const final = await api(ctx).call('POST', `/v1/review/${id}`, second.key, { decision: 'approve', note: NOTE, mrz: PRINTED }, 200);
    expect(final.json().verification.status).toBe('approved');
    const decided = (await api(ctx).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
    expect(decided.document).toMatchObject({ mrz_source: 'reviewer', expires_on: '2031-01-01' });
  });
});
