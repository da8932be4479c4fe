import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { captureAll, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { makeCertificate, startReceiver, type Receiver } from '../helpers/receivers.js';
import { newProfile, publish, register } from '../helpers/webhooks.js';
import { browserAvailable, collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot, startServer, type LiveServer } from './browser.js';

describe.skipIf(!browserAvailable())('operator console Overview in chromium', () => {
  let server: LiveServer;
  let browser: Browser;
  let receiver: Receiver;
  const expected = { delivered: 0, failed: 0, approved: 0, declined: 0 };

  beforeAll(async () => {
    const certificate = await makeCertificate();
    receiver = await startReceiver(certificate);
    server = await startServer({ env: { ...HIGH_LIMITS, WEBHOOK_RETRY_DELAYS_MS: '3600000' }, webhooks: { ca: certificate.cert } });
    browser = await launchBrowser();
    // Forty minutes of traffic: deliveries every minute (every third one refused), a decision every eighth minute.
    server.clock.set('2026-11-22T11:20:00.000Z');
    const profileId = await newProfile(server);
    await register(server, profileId, receiver.url('/overview'));
    const idv = await identityTenant(server);
    for (let minute = 0; minute < 40; minute++) {
      server.clock.set(new Date(Date.parse('2026-11-22T11:20:05.000Z') + minute * 60_000));
      const burst = 1 + (minute % 4);
      for (let i = 0; i < burst; i++) {
        const refused = (minute + i) % 3 === 0;
        receiver.plan(refused ? 503 : 200);
        expected[refused ? 'failed' : 'delivered'] += 1;
        await publish(server, profileId);
      }
      await server.app.jobs.drain();
      if (minute % 8 === 4) {
        const declined = minute % 16 === 12;
        const v = await captureAll(server, idv.backend, declined ? { mrz: passportMrz({ breakCheckDigit: true }) } : {});
        expect((await settle(server, idv.backend, v.id)).status).toBe(declined ? 'declined' : 'approved');
        expected[declined ? 'declined' : 'approved'] += 1;
      }
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('shows the last hour in three charts: deliveries, decisions and queue depth, with their totals', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.url}/console/operator/overview`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    await deliveries.getByRole('img', { name: 'Webhook attempts per minute: delivered and failed' }).waitFor();
    // Each decision's webhook goes to the verification's own URL, where nothing listens: a failed attempt each.
    const failed = expected.failed + expected.approved + expected.declined;
    expect(await deliveries.locator('.legend').textContent()).toBe(`Delivered: ${expected.delivered}Failed: ${failed}`);
    // One bar per minute that had attempts, and its tooltip says what it holds.
    expect(await deliveries.locator('svg g:has(rect)').count()).toBe(40);
    expect(await deliveries.locator('svg g:has(rect) title').first().textContent()).toMatch(/^11:20( AM)?: \d+ delivered, \d+ failed$/);

    const decisions = page.getByRole('region', { name: 'Identity decisions' });
    expect(await decisions.locator('.legend').textContent()).toBe(
      `Approved: ${expected.approved}Declined: ${expected.declined}Manual review: 0`,
    );
    expect(await decisions.locator('svg g:has(rect)').count()).toBe(expected.approved + expected.declined);

    const queue = page.getByRole('region', { name: 'Queue depth' });
    await queue.getByRole('img', { name: 'Jobs waiting or running at the end of each minute, by lane' }).waitFor();
    expect(await queue.locator('svg polyline').count()).toBe(3);
    // The refused deliveries wait for their retry in an hour: still queued now.
    expect(await queue.locator('.legend').textContent()).toMatch(/^Identity: 0 nowDeliveries: \d+ nowHousekeeping: \d+ now$/);
    await screenshot(page, 'operator-overview');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits a phone, the charts one under the other', async () => {
    const context = await browser.newContext({ viewport: PHONE, timezoneId: 'UTC' });
    await context.addInitScript((token) => (globalThis as any).sessionStorage.setItem('console.adminToken', token), ADMIN_TOKEN);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.url}/console/operator/overview`);
    await page.getByRole('region', { name: 'Queue depth' }).waitFor();
    const widths = await page
      .locator('svg.chart')
      .evaluateAll((svgs) => svgs.map((s) => (s as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width));
    expect(widths).toHaveLength(3);
    for (const w of widths) expect(w).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'operator-overview-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
