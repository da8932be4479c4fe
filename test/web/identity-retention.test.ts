import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { identityTenant } from '../helpers/identity.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot, useLiveConsole } from './browser.js';

/**
 * The operator console's profile screen sets the profile's identity retention (docs/operations.md,
 * "Retention") and the privacy policy the capture page links to (docs/identity.md, "Consent and capture").
 */
describe.skipIf(!browserAvailable())('operator console: identity retention and privacy policy in chromium', () => {
  const live = useLiveConsole();

  /** The operator signed in, on the profile's screen, with the page's errors collected. */
  async function profileScreen(profileId: string) {
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}/console/operator`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    await page.goto(`${live.server.url}/console/operator/profiles/${profileId}/keys`);
    return { context, page, errors };
  }

  it('shows it kept until erased, sets a number of days, refuses one out of range, and clears it again', async () => {
    const tenant = await identityTenant(live.server);
    const retention = async () => (await live.server.admin('GET', `/profiles/${tenant.profileId}`)).data.identityRetentionDays;
    const { context, page, errors } = await profileScreen(tenant.profileId);

    const field = page.getByLabel(/Erase decided verifications after/);
    const change = page.getByRole('button', { name: 'Change retention' });
    await expect.poll(() => field.inputValue()).toBe('');
    await field.fill('90');
    await change.click();
    await expect.poll(retention).toBe(90);
    await page.reload();
    await expect.poll(() => field.inputValue()).toBe('90');
    await screenshot(page, 'operator-identity-retention');
    expect(await axeViolations(page)).toEqual([]);

    // Out of range: the field says so (the browser's own range check, as the venue form's) and nothing is sent.
    await field.fill('4000');
    await change.click();
    expect(await field.evaluate((el) => (el as unknown as { validity: { rangeOverflow: boolean } }).validity.rangeOverflow)).toBe(true);
    expect(await retention()).toBe(90);

    await field.fill('');
    await change.click();
    await expect.poll(retention).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });
  it('sets the privacy policy, shows the server refusing plain http under the form, and removes it again', async () => {
    const tenant = await identityTenant(live.server);
    const policy = async () => (await live.server.admin('GET', `/profiles/${tenant.profileId}`)).data.privacyPolicyUrl;
    const { context, page, errors } = await profileScreen(tenant.profileId);

    const field = page.getByLabel(/Privacy policy linked from the capture page/);
    const change = page.getByRole('button', { name: 'Change privacy policy' });
    await expect.poll(() => field.inputValue()).toBe('');
    // Plain http passes the browser's url check; the server refuses it and the form says why.
    await field.fill('http://example.com/privacy');
    await change.click();
    await expect
      .poll(() => page.getByRole('form', { name: 'Privacy policy' }).getByRole('alert').innerText())
      .toMatch(/Privacy policy URL: must be an https:\/\/ address/);
    expect(await policy()).toBeNull();

    await field.fill('https://example.com/privacy');
    await change.click();
    await expect.poll(policy).toBe('https://example.com/privacy');
    await page.reload();
    await expect.poll(() => field.inputValue()).toBe('https://example.com/privacy');
    await screenshot(page, 'operator-privacy-policy');
    expect(await axeViolations(page)).toEqual([]);

    await field.fill('');
    await change.click();
    await expect.poll(policy).toBeNull();
    // The refused http address is the one failed request: the browser logs its 400.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await context.close();
  });
});
