import { describe, expect, it } from 'vitest';
import { addKey } from '../helpers/tenants.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { FOUR_EYES_ZONES, zoneSeenByTheReader } from '../helpers/zones.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot, useLiveConsole } from './browser.js';

const NOTE = 'Compared the zone with the data page by hand.';
const { READ, FIRST, PRINTED } = FOUR_EYES_ZONES;

/**
 * The second reviewer of a four-eyes case confirms the zone from the document: the zone field is
 * prefilled with the text the document reader saw (README, Reviewer console: "prefilled with what
 * was read"), never with the first reviewer's entry, so the second pair of eyes is not led by the
 * first. test/identity/four-eyes-zone.test.ts pins the case view this prefill comes from.
 */
describe.skipIf(!browserAvailable())('reviewer console: the four-eyes zone prefill, in chromium', () => {
  const live = useLiveConsole({ env: HIGH_LIMITS });

  it('prefills the second reviewer’s zone field with the text read, not the first reviewer’s zone; the corrected zone is the one approved', async () => {
    const tenant = await identityTenant(live.server);
    await live.server.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' });
    const second = await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Second Reviewer' });
    const { id } = await captureIntoManualReview(live.server, tenant.backend, 9521);
    await zoneSeenByTheReader(live.server, id, READ);
    await api(live.server).call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'approve', note: NOTE, mrz: FIRST }, 200);

    const context = await live.browser.newContext({ viewport: DESKTOP, timezoneId: 'UTC' });
    await context.addInitScript((key) => (globalThis as any).sessionStorage.setItem('console.reviewerKey', key), second.key);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}/console/review/${id}`);
    await page.getByTestId('review-standing').getByText('Awaiting a second review').waitFor();
    // The panel: the zone on record is the first reviewer's; the text read is shown as read.
    await page.getByTestId('zone-source').getByText('Entered by a reviewer from the document images.').waitFor();
    expect(await page.getByTestId('zone-lines').textContent()).toBe(READ);
    await page.getByTestId('zone-fields').getByText('1 January 2032').waitFor();

    await page.getByLabel('Approve').check();
    const field = page.getByLabel('Confirm the lines as printed on the document, or correct them (one line per row)');
    expect(await field.inputValue()).toBe(READ);
    expect(await field.inputValue()).not.toBe(FIRST);
    // What was read fails a check digit: the second reviewer sees it and corrects from the document.
    await page.getByText(/^The check digit of the document number does not hold/).waitFor();
    await screenshot(page, 'reviewer-four-eyes-zone-prefill');
    expect(await axeViolations(page)).toEqual([]);

    await field.fill(PRINTED);
    await page.getByText('Every check digit holds.').waitFor();
    await page.getByLabel('Note (why; at least 20 characters; Enter submits, Shift+Enter new line)').fill(NOTE);
    await page.getByRole('button', { name: 'Submit decision' }).click();
    await page.getByText(`Case ${id.slice(0, 8)}: approved.`).waitFor();
    const decided = (await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
    expect(decided).toMatchObject({ status: 'approved', document: { mrz_source: 'reviewer', expires_on: '2031-01-01' } });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
