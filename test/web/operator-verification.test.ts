import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant, type IdentityTenant } from '../helpers/identity.js';
import { makeCertificate, startReceiver, type Receiver } from '../helpers/receivers.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot, startServer, type LiveServer } from './browser.js';

const NOTE = 'The portrait and the selfie frames are not the same person.';
const REFUSAL = '{"error":"signature did not verify","hint":"check the JWKS key id"}';

/** A screenshot to look at, and the screen as it is now free of serious and critical axe violations. */
async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
}

/**
 * The operator's page of one verification (docs/consoles.md, Consoles) and of one of its decision webhook's
 * deliveries, in chromium: against a real HTTPS receiver that refuses the decline's webhook with a
 * body of its own, so the delivery is pending with a retry due and an answer to show.
 */
describe.skipIf(!browserAvailable())("operator console: a verification's detail and its webhook delivery, in chromium", () => {
  let server: LiveServer;
  let browser: Browser;
  let receiver: Receiver;
  let tenant: IdentityTenant;
  let decided: string;

  beforeAll(async () => {
    const certificate = await makeCertificate();
    receiver = await startReceiver(certificate);
    server = await startServer({ env: HIGH_LIMITS, webhooks: { ca: certificate.cert } });
    browser = await launchBrowser();
    tenant = await identityTenant(server);
    // The earlier verification's approval and this one's manual_review are received; the decline's webhook is refused.
    receiver.plan(200, 200, { status: 401, body: REFUSAL });
    decided = (await captureIntoManualReview(server, tenant.backend, 7301, { webhookUrl: receiver.url('/decisions') })).id;
    server.clock.advance(60_000);
    await api(server).call(
      'POST',
      `/v1/review/${decided}`,
      tenant.reviewer,
      { decision: 'decline', note: NOTE, decline_reasons: ['face_mismatch'] },
      200,
    );
    await server.app.jobs.drain();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  async function signedIn(path: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport, timezoneId: 'UTC' });
    await context.addInitScript((token) => (globalThis as any).sessionStorage.setItem('console.adminToken', token), ADMIN_TOKEN);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.url}${path}`);
    return { page, errors };
  }

  /** A time as the page writes it (the viewer's locale and time zone: UTC here). */
  const shown = (page: Page, iso: string) =>
    page.evaluate((at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(at)), iso);

  it('shows the timeline, the reviewer’s decline with its note, the images (a view is audited) and the decision webhook’s deliveries', async () => {
    const { page, errors } = await signedIn(`/console/operator/profiles/${tenant.profileId}/verifications/${decided}`);
    await page.getByRole('heading', { name: 'Verification', level: 1 }).waitFor();
    expect(await page.getByTestId('verification-status').textContent()).toBe('declined');
    await page.getByText('Declined by a reviewer (reviewer_declined)').waitFor();

    const reviews = page.getByRole('region', { name: 'Reviewer decisions' });
    await reviews.getByText(/^Declined$/).waitFor();
    await reviews.getByText('Face does not match the document').waitFor();
    expect(await reviews.locator('blockquote').textContent()).toBe(NOTE);

    const timeline = page.getByRole('table', { name: 'Timeline' });
    const events = () => timeline.locator('tbody tr td:nth-child(2) code').allTextContents();
    expect(await events()).toEqual(
      expect.arrayContaining(['verification.created', 'verification.manual_review', 'review.decided', 'verification.declined']),
    );
    expect(await events()).not.toContain('operator.image_viewed');

    const deliveries = page.getByRole('table', { name: 'Decision webhook deliveries' });
    const declined = deliveries.getByRole('row', { name: /verification\.declined/ });
    // Refused once with a retry due: failing, and the refusal in words.
    await declined.getByText('failing', { exact: true }).waitFor();
    await declined.getByText(/^refused \(HTTP 401\)/).waitFor();
    await declined.getByText('1 / 3').waitFor();
    await deliveries
      .getByRole('row', { name: /verification\.manual_review/ })
      .getByText('delivered', { exact: true })
      .waitFor();
    await look(page, 'operator-verification-detail');

    // Opening the document shows it, and the view is in the timeline at once: operator.image_viewed by the operator.
    await page.getByRole('button', { name: 'Show document' }).click();
    const image = page.getByRole('img', { name: 'Document', exact: true });
    await image.waitFor();
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(640);
    const viewed = timeline.getByRole('row', { name: /operator\.image_viewed/ });
    await viewed.waitFor();
    expect(await viewed.locator('td').nth(2).textContent()).toBe('operator');
    expect((await events()).filter((e) => e === 'operator.image_viewed')).toHaveLength(1);
    // The audit chain the reviewer reads holds the same view.
    const audit = (await api(server).call('GET', `/v1/review/${decided}`, tenant.reviewer, undefined, 200)).json().audit;
    expect(audit.filter((e: { type: string; actor: string }) => e.type === 'operator.image_viewed')).toEqual([
      expect.objectContaining({ actor: 'operator' }),
    ]);
    await look(page, 'operator-verification-image-viewed');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows a delivery: the body it sends, each answer with the start of its body, and when the retry is due', async () => {
    const { page, errors } = await signedIn(`/console/operator/profiles/${tenant.profileId}/verifications/${decided}`);
    await page.getByRole('link', { name: 'verification.declined' }).click();
    await page.getByRole('heading', { name: 'Webhook delivery', level: 1 }).waitFor();
    const deliveryId = /deliveries\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const stored = (await server.admin('GET', `/webhook-deliveries/${deliveryId}`)).data;
    expect(stored).toMatchObject({ state: 'pending', attemptCount: 1, nextAttemptAt: expect.any(String) });

    expect(await page.getByTestId('delivery-state').textContent()).toBe('failing');
    expect(await page.getByTestId('next-attempt').textContent()).toBe(await shown(page, stored.nextAttemptAt));
    // The decision webhook's retry is a minute after the first attempt (docs/webhooks.md, Receiving webhooks).
    const due = Date.parse(stored.nextAttemptAt) - Date.parse(stored.attempts[0].at);
    expect(due).toBeGreaterThanOrEqual(60_000);
    expect(due).toBeLessThanOrEqual(72_000);
    await page.getByText(receiver.url('/decisions'), { exact: true }).waitFor();

    const request = JSON.parse((await page.getByTestId('request-body').textContent())!);
    expect(request).toMatchObject({
      type: 'verification.declined',
      data: { verification_id: decided, status: 'declined', profile_id: tenant.profileId },
    });
    // What the receiver got, byte for byte (the page indents it).
    const sent = receiver.received.filter((r) => r.path === '/decisions').at(-1)!;
    expect(stored.requestBody).toBe(sent.body);
    expect(JSON.parse(sent.body)).toEqual(request);

    const first = page.getByTestId('attempt-1');
    await first.getByText('HTTP 401').waitFor();
    expect(await first.getByTestId('response-body').textContent()).toBe(REFUSAL);
    expect(await first.getByText(/^Only the first 1 KiB/).count()).toBe(0);

    // The retry, when due, meets an overloaded receiver with a long error page: its first 1 KiB is shown, and the next retry.
    const page503 = `<html><body><h1>503 Service Unavailable</h1>${'<p>The upstream is overloaded.</p>'.repeat(100)}</body></html>`;
    receiver.plan({ status: 503, body: page503 });
    server.clock.set(stored.nextAttemptAt);
    await server.app.jobs.drain();
    const retried = (await server.admin('GET', `/webhook-deliveries/${deliveryId}`)).data;
    expect(retried).toMatchObject({ state: 'pending', attemptCount: 2 });
    // The third and last attempt is ten minutes after the second (plus jitter).
    expect(Date.parse(retried.nextAttemptAt) - Date.parse(stored.nextAttemptAt)).toBeGreaterThanOrEqual(600_000);
    await page.reload();
    const second = page.getByTestId('attempt-2');
    await second.getByText('HTTP 503').waitFor();
    expect(await second.getByTestId('response-body').textContent()).toBe(page503.slice(0, 1024));
    await second.getByText(/^Only the first 1 KiB is kept/).waitFor();
    expect(await page.getByTestId('next-attempt').textContent()).toBe(await shown(page, retried.nextAttemptAt));
    await look(page, 'operator-delivery-detail');

    // On a phone the page does not scroll sideways: the attempts table scrolls inside itself.
    const phone = await signedIn(`/console/operator/deliveries/${deliveryId}`, PHONE);
    await phone.page.getByTestId('attempt-1').getByTestId('response-body').waitFor();
    expect(await phone.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await look(phone.page, 'operator-delivery-detail-phone');
    expect([...errors, ...phone.errors]).toEqual([]);
  }, 60_000);

  it('issues a new capture link with its QR code; the earlier link stops working', async () => {
    const started = (await server.admin('POST', `/profiles/${tenant.profileId}/verifications`, { reference: 'desk 3' })).data;
    const { page, errors } = await signedIn(`/console/operator/profiles/${tenant.profileId}/verifications/${started.id}`);
    await page.getByRole('button', { name: 'Issue a new capture link' }).click();
    const link = page.getByTestId('capture-link');
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith(`${server.app.config.PUBLIC_URL}/capture#`)).toBe(true);
    expect(new URL(href).hash).toMatch(/^#[\w-]{43}$/);
    expect(await link.textContent()).toBe(href);
    const qr = page.getByRole('img', { name: 'QR code of the capture link' });
    await qr.waitFor();
    const box = (await qr.boundingBox())!;
    // Square, and of a size a phone scans from the screen (not the whole column wide).
    expect(box.width).toBe(box.height);
    expect(box.width).toBeGreaterThanOrEqual(150);
    expect(box.width).toBeLessThanOrEqual(300);
    expect((await qr.locator('path').getAttribute('d'))!.length).toBeGreaterThan(100);
    await look(page, 'operator-verification-capture-link');

    // The new token works; the one issued when the verification started does not.
    const token = new URL(href).hash.slice(1);
    expect((await api(server).status(token)).statusCode).toBe(200);
    expect((await api(server).status(started.handoff_token)).statusCode).toBe(401);
    // And the capture page says so to whoever opens the old link.
    const captureUrl = (t: string) => `${server.url}/capture#${t}`;
    for (const [opened, screen] of [
      [started.handoff_token, 'expired'],
      [token, 'intro'],
    ] as const) {
      const phone = await browser.newPage({ viewport: PHONE });
      await phone.goto(captureUrl(opened));
      await expect.poll(() => phone.locator('main').getAttribute('data-screen'), { timeout: 15_000 }).toBe(screen);
      await phone.close();
    }
    const trail = (await server.admin('GET', `/profiles/${tenant.profileId}/verifications/${started.id}`)).data.timeline;
    expect(trail.filter((e: { type: string }) => e.type === 'handoff.issued').map((e: { actor: string }) => e.actor)).toEqual([
      'operator',
      'operator',
    ]);
    expect(errors).toEqual([]);
  }, 60_000);
});
