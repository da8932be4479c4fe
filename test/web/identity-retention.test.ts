import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { identityTenant } from '../helpers/identity.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot, useLiveConsole } from './browser.js';

/** The operator console's profile screen sets the profile's identity retention (README, "Retention"). */
describe.skipIf(!browserAvailable())('operator console: identity retention in chromium', () => {
  const live = useLiveConsole();

  it('shows it kept until erased, sets a number of days, refuses one out of range, and clears it again', async () => {
    const tenant = await identityTenant(live.server);
    const retention = async () => (await live.server.admin('GET', `/profiles/${tenant.profileId}`)).data.identityRetentionDays;
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${live.server.url}/console/operator`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profiles', level: 1 }).waitFor();
    await page.goto(`${live.server.url}/console/operator/profiles/${tenant.profileId}/keys`);

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
});
