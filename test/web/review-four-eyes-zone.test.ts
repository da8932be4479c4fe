import { describe, expect, it } from 'vitest';
import { addKey } from '../helpers/tenants.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { FOUR_EYES_ZONES, zoneSeenByTheReader } from '../helpers/zones.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot, useLiveConsole } from './browser.js';

const NOTE = 'Compared the zone with the data page by hand.';
const { READ, FIRST, PRINTED } = FOUR_EYES_ZONES;

/**
 * The second reviewer of a four-eyes case (docs/consoles.md, Reviewer console and Four-eyes review): the zone
 * field is prefilled with the text the document reader saw, never with the first reviewer's entry,
 * so the second pair of eyes is not led by the first; the first approval's zone is shown beside
 * the zone read with the differing characters marked, since the deciding approval must carry the
 * same zone, and the service's 409 says why an approval with another zone was refused.
 * test/identity/four-eyes-zone.test.ts pins the API underneath.
 */
describe.skipIf(!browserAvailable())('reviewer console: the four-eyes zone, in chromium', () => {
  const live = useLiveConsole({ env: HIGH_LIMITS });

  it('shows the first approval’s zone beside the zone read, marks what differs, shows the 409 of another zone, and decides with the same one', async () => {
    const tenant = await identityTenant(live.server);
    await live.server.admin('PATCH', `/profiles/${tenant.profileId}`, { reviewPolicy: 'four_eyes' });
    const first = await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'First Reviewer' });
    const second = await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Second Reviewer' });
    const { id } = await captureIntoManualReview(live.server, tenant.backend, 9521);
    await zoneSeenByTheReader(live.server, id, READ);
    // The first reviewer confirmed the zone as printed.
    await api(live.server).call('POST', `/v1/review/${id}`, first.key, { decision: 'approve', note: NOTE, mrz: PRINTED }, 200);

    const context = await live.browser.newContext({ viewport: DESKTOP, timezoneId: 'UTC' });
    await context.addInitScript((key) => (globalThis as any).sessionStorage.setItem('console.reviewerKey', key), second.key);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}/console/review/${id}`);
    await page.getByTestId('review-standing').getByText('Awaiting a second review').waitFor();
    // The zone on record is still the website's: the first reviewer's entry is not the verification's yet.
    expect(await page.getByTestId('zone-source').textContent()).toMatch(/^Typed by the website/);
    expect(await page.getByTestId('zone-lines').textContent()).toBe(READ);

    // Both zones side by side, what differs marked: the S the reader saw where the first reviewer confirmed a 5.
    const compare = page.getByTestId('zone-compare');
    await compare.getByText('First Reviewer').waitFor();
    expect(await page.getByTestId('zone-compare-read').textContent()).toBe(READ);
    expect(await page.getByTestId('zone-compare-first').textContent()).toBe(PRINTED);
    expect(await page.getByTestId('zone-compare-read').locator('mark').allTextContents()).toEqual(['S']);
    expect(await page.getByTestId('zone-compare-first').locator('mark').allTextContents()).toEqual(['5']);
    expect(await page.getByTestId('zone-compare-summary').textContent()).toBe('They differ (marked) at line 2, character 6.');

    await page.getByLabel('Approve').check();
    const field = page.getByLabel('Confirm the lines as printed on the document, or correct them (one line per row)');
    expect(await field.inputValue()).toBe(READ);
    expect(await page.getByTestId('zone-match').textContent()).toMatch(/^Not the zone of the first approval/);
    // A slip in the expiry: valid check digits, but not the first approval's zone. The service refuses it (409), and says why.
    await field.fill(FIRST);
    await page.getByText('Every check digit holds.').waitFor();
    await page.getByLabel('Note (why; at least 20 characters; Enter submits, Shift+Enter new line)').fill(NOTE);
    await page.getByRole('button', { name: 'Submit decision' }).click();
    await page
      .getByRole('alert')
      .getByText(
        /^Not approved: the first approval carried a different machine-readable zone \(a passport zone; they differ at line 2, characters 23 and 28\)\. Your approval decides this case/,
      )
      .waitFor();
    expect(await page.getByTestId('case-status').textContent()).toBe('manual_review');
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('zone');
    await screenshot(page, 'reviewer-four-eyes-zone-mismatch');
    expect(await axeViolations(page)).toEqual([]);

    await field.fill(PRINTED);
    await page.getByTestId('zone-match').getByText('The same zone as the first approval.').waitFor();
    await page.getByRole('button', { name: 'Submit decision' }).click();
    await page.getByText(`Case ${id.slice(0, 8)}: approved.`).waitFor();
    const decided = (await api(live.server).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
    expect(decided).toMatchObject({ status: 'approved', document: { mrz_source: 'reviewer', expires_on: '2031-01-01' } });
    // The browser logs the refused call itself; the page reports nothing else.
    expect(errors.filter((e) => !e.includes('status of 409 (Conflict)'))).toEqual([]);
    await context.close();
  }, 120_000);

  it('lists each key’s holder in the operator console and takes one for a new reviewer key', async () => {
    const tenant = await identityTenant(live.server);
    await addKey(live.server, tenant.profileId, { service: 'identity', role: 'reviewer', name: 'Laptop', holder: 'Dana Adeyemi' });
    const context = await live.browser.newContext({ viewport: DESKTOP, timezoneId: 'UTC' });
    await context.addInitScript((token) => (globalThis as any).sessionStorage.setItem('console.adminToken', token), ADMIN_TOKEN);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}/console/operator/profiles/${tenant.profileId}/keys`);
    const table = page.getByRole('table', { name: 'API keys' });
    expect(
      await table
        .getByRole('row', { name: /Laptop/ })
        .getByTestId('key-holder')
        .textContent(),
    ).toBe('Dana Adeyemi');

    await page.getByLabel('Key name (optional: who holds it, e.g. the reviewer)').fill('Phone');
    await page.getByLabel('Service').selectOption('identity');
    // A holder belongs to reviewer keys only: the field shows with that role.
    await page.getByLabel('Role').selectOption('backend');
    expect(await page.locator('#key-holder').count()).toBe(0);
    await page.getByLabel('Role').selectOption('reviewer');
    await page.getByLabel(/^Holder/).fill('Dana Adeyemi');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await table.getByRole('row', { name: /Phone/ }).getByTestId('key-holder').textContent()).toBe('Dana Adeyemi');
    const keys = (await live.server.admin('GET', `/api-keys?profileId=${tenant.profileId}`)).data.items;
    expect(keys.find((k: { name: string | null }) => k.name === 'Phone')).toMatchObject({ role: 'reviewer', holder: 'Dana Adeyemi' });
    await screenshot(page, 'operator-key-holders');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
