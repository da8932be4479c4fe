import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { png } from '../../scripts/fixtures/images.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { captureAll, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { newProfile, publish, register } from '../helpers/webhooks.js';
import { zoneSeenByTheReader } from '../helpers/zones.js';
import { faceCrop } from '../../web/console/review-faces.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, PHONE, screenshot, useLiveConsole, type LiveServer } from './browser.js';

/** A screenshot to look at, and the screen as it is now free of serious and critical axe violations. */
async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
}

const activeId = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.id as string | undefined);

/** Face signals as the pipeline stores them: boxes in pixels of the analysed image (half the stored size here). */
function faceSignals(steps: number) {
  const face = (box: number[], yaw: number) => ({ score: 0.9, box, yaw, pitch: 0, roll: 0, antispoof: 0.9, liveness: 0.8 });
  const poses = ['front', 'left', 'right'] as const;
  return {
    document: { width: 320, height: 240, face_count: 1, faces: [face([40, 50, 60, 80], 0)] },
    frames: Array.from({ length: steps }, (_, step) => ({
      step,
      pose: poses[step % 3],
      width: 240,
      height: 320,
      face_count: 1,
      // Step 2 (left) turned the wrong way; step 3 matches the document poorly.
      faces: [face([70, 90, 100, 120], [0.02, 0.3, 0.4][step % 3]!)],
      document_similarity: [0.52, 0.5, 0.33][step % 3],
    })),
    document_similarity: 0.5,
    frame_consistency: { min: 0.7, mean: 0.8 },
    thresholds: { match_low: 0.3, match_high: 0.45, yaw_turn: 0.2, yaw_front: 0.15 },
    duration_ms: 120,
  };
}

async function signedIn(server: LiveServer, browser: Browser, path: string, credential: [string, string], viewport = DESKTOP) {
  const context = await browser.newContext({ viewport, timezoneId: 'UTC' });
  await context.addInitScript(([name, value]: [string, string]) => (globalThis as any).sessionStorage.setItem(name, value), credential);
  const page: Page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${server.url}${path}`);
  return { page, errors, context };
}

/**
 * The reviewer's case built for comparing and the operator told what is failing (docs/consoles.md,
 * Consoles), in chromium: every screen looked at (test-results/) and checked with axe.
 */
describe.skipIf(!browserAvailable())('consoles: comparing faces, and what is failing, in chromium', () => {
  const certificate = useCertificate();
  // The receiver's certificate is self-signed and the server is not told to trust it.
  const receiver = useReceiver(certificate);
  const live = useLiveConsole({ env: HIGH_LIMITS });

  it('reviewer: the queue counts and names references; the case shows faces side by side with their figures, zoom by keyboard, the zone never cut', async () => {
    const tenant = await identityTenant(live.server);
    const document = png(640, 480, { seed: 5151, noisyRows: 480 });
    const first = await captureAll(live.server, tenant.backend, { document });
    await settle(live.server, tenant.backend, first.id);
    const frames = (step: number) => png(480, 640, { seed: 5200 + step, noisyRows: 640 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      live.server.clock.advance(60_000);
      const { id, challenge } = await captureAll(live.server, tenant.backend, { document, frames });
      expect((await settle(live.server, tenant.backend, id)).status).toBe('manual_review');
      const signals = faceSignals(challenge.steps.length);
      await live.server.app.db.execute(sql`update identity_verifications set signals = ${JSON.stringify(signals)}::jsonb where id = ${id}`);
      ids.push(id);
    }
    // The zone as the reader saw it: a passport's two lines of 44 characters.
    const zone = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10';
    await zoneSeenByTheReader(live.server, ids[0]!, zone);

    const { page, errors, context } = await signedIn(live.server, live.browser, '/console/review', [
      'console.reviewerKey',
      tenant.reviewer,
    ]);
    await page.getByTestId('queue-count').getByText('2').waitFor();
    expect(await page.getByTestId('queue-count').textContent()).toMatch(/^2 cases wait for a decision\./);
    const queue = page.getByRole('table', { name: 'Verifications waiting for a decision' });
    expect(await queue.getByRole('columnheader').allTextContents()).toContain('Customer reference');
    expect(await queue.getByRole('cell', { name: 'order-42' }).count()).toBe(2);
    await look(page, 'reviewer-queue-count');

    // Enter opens the oldest; the faces stand side by side, each with its own figures.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Case ${ids[0]!.slice(0, 8)}` }).waitFor();
    expect(await page.getByTestId('case-reference').textContent()).toBe('order-42');
    const faces = page.getByRole('region', { name: 'Faces side by side' });
    const documentFace = faces.getByTestId('face-document').locator('img');
    await documentFace.waitFor();
    type Img = { naturalWidth: number; naturalHeight: number };
    const size = (img: typeof documentFace) =>
      img.evaluate((i) => [(i as unknown as Img).naturalWidth, (i as unknown as Img).naturalHeight]);
    const expectedDocument = faceCrop(
      { box: [40, 50, 60, 80], yaw: 0, antispoof: null, liveness: null },
      { width: 320, height: 240 },
      { width: 640, height: 480 },
    )!;
    expect(await size(documentFace)).toEqual([expectedDocument.width, expectedDocument.height]);
    const step1 = faces.getByTestId('face-step-0');
    await step1.getByText('0.52 — at or above 0.45, enough to approve').waitFor();
    await step1.getByText(/must face the camera/).waitFor();
    const expectedFrame = faceCrop(
      { box: [70, 90, 100, 120], yaw: 0, antispoof: null, liveness: null },
      { width: 240, height: 320 },
      { width: 480, height: 640 },
    )!;
    expect(await size(step1.locator('img'))).toEqual([expectedFrame.width, expectedFrame.height]);
    await faces
      .getByTestId('face-step-1')
      .getByText(/asked to turn left, at least 11°/)
      .waitFor();
    expect(await faces.getByTestId('face-step-1').locator('li.fail').count()).toBe(1);
    await faces.getByTestId('face-step-2').getByText('0.33 — needs 0.45 to approve (below 0.30 declines)').waitFor();
    // The case's own figures are at the top of the same section.
    await faces.getByTestId('signals').getByText('0.50 — at or above 0.45, enough to approve').waitFor();
    // Each image is fetched once although shown twice (crop, and whole in the document row): each fetch is an audited view.
    const steps = await faces.locator('.face-frames figure').count();
    await expect.poll(() => page.locator('.face-card img, .gallery img').count(), { timeout: 60_000 }).toBe(1 + steps + 1);
    const viewed = await live.server.app.db.execute(
      sql`select count(*)::int as n from identity_audit_events where verification_id = ${ids[0]} and type = 'review.image_viewed'`,
    );
    expect((viewed as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1 + steps);

    // The zone in full: no line cut or scrolled away, in the panel and in the approve form.
    const pre = page.getByTestId('zone-lines');
    expect(await pre.textContent()).toBe(zone);
    expect(await pre.evaluate((e) => (e as any).scrollWidth <= (e as any).clientWidth)).toBe(true);
    await look(page, 'reviewer-case-faces');

    // Zoom by keyboard: Tab to the document's face, Enter opens the whole image, Escape returns.
    const zoomButton = faces.getByTestId('face-document').getByRole('button');
    await zoomButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.locator('img').evaluate((i) => (i as unknown as Img).naturalWidth)).toBe(640);
    await look(page, 'reviewer-case-zoom');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await zoomButton.evaluate((b) => b === (globalThis as any).document.activeElement)).toBe(true);

    await page.keyboard.press('a');
    await expect.poll(() => activeId(page)).toBe('note');
    const field = page.getByLabel('Confirm the lines as printed on the document, or correct them (one line per row)');
    expect(await field.inputValue()).toBe(zone);
    expect(await field.evaluate((e) => (e as any).scrollWidth <= (e as any).clientWidth)).toBe(true);
    await look(page, 'reviewer-case-approve-zone');

    // "Next case" goes on to the second case without deciding.
    await page.getByTestId('next-case').click();
    await page.getByRole('heading', { name: `Case ${ids[1]!.slice(0, 8)}` }).waitFor();
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    const firstCase = new URL(page.url()).pathname.replace(ids[1]!, ids[0]!);
    await context.close();

    // On a phone the same case fits the screen's width: the faces stack, the zone wraps, nothing scrolls sideways.
    const phone = await signedIn(live.server, live.browser, firstCase, ['console.reviewerKey', tenant.reviewer], PHONE);
    await phone.page.getByRole('heading', { name: `Case ${ids[0]!.slice(0, 8)}` }).waitFor();
    await phone.page.getByRole('region', { name: 'Faces side by side' }).getByTestId('face-document').locator('img').waitFor();
    const pageWidth = () => phone.page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    const phoneZone = phone.page.getByTestId('zone-lines');
    expect(await phoneZone.textContent()).toBe(zone);
    expect(await phoneZone.evaluate((e) => (e as any).scrollWidth <= (e as any).clientWidth)).toBe(true);
    await look(phone.page, 'reviewer-case-phone');
    await phone.page.keyboard.press('a');
    await expect.poll(() => activeId(phone.page)).toBe('note');
    expect(await pageWidth()).toBeLessThanOrEqual(PHONE.width);
    await look(phone.page, 'reviewer-case-phone-approve');
    expect(phone.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await phone.context.close();
  }, 300_000);

  it('operator: the overview names the failing address with a link, by time range and profile; deliveries read in words; redeliver answers', async () => {
    const profileId = await newProfile(live.server);
    await register(live.server, profileId, receiver.url('/untrusted'));
    await publish(live.server, profileId);
    await live.server.app.jobs.drain();
    const delivery = (await live.server.admin('GET', `/webhook-deliveries?profileId=${profileId}`)).data.items[0];
    expect(delivery.lastError).toMatch(/^DEPTH_ZERO_SELF_SIGNED_CERT/);

    const { page, errors, context } = await signedIn(live.server, live.browser, '/console/operator/overview', [
      'console.adminToken',
      ADMIN_TOKEN,
    ]);
    const banner = page.getByTestId('failing');
    await banner.getByText(receiver.url('/untrusted')).waitFor();
    await banner.getByText(/the receiver’s certificate is self-signed/).waitFor();
    await look(page, 'operator-overview-failing');
    await page.getByLabel('Time range').selectOption('24h');
    await page.getByRole('img', { name: 'Webhook attempts per 24 minutes: delivered and failed' }).waitFor();
    // Another profile has nothing failing: the banner goes.
    const quiet = await newProfile(live.server);
    await page.reload();
    await page.getByLabel('Profile').selectOption(quiet);
    await banner.waitFor({ state: 'detached' });
    await page.getByLabel('Profile').selectOption(profileId);
    await banner.waitFor();
    await banner.getByRole('link', { name: 'See the delivery' }).click();
    await page.getByRole('heading', { name: 'Webhook delivery', level: 1 }).waitFor();
    expect(await page.getByTestId('delivery-state').textContent()).toBe('failing');
    await page
      .locator('dl')
      .getByTestId('last-response')
      .getByText(/self-signed/)
      .waitFor();
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('status').getByText('Queued: it is sent again now').waitFor();
    await look(page, 'operator-delivery-failing');

    // The profile's log reads the same in words.
    await page.goto(`${live.server.url}/console/operator/profiles/${profileId}/webhooks`);
    const log = page.getByRole('table', { name: 'Delivery log' });
    await log.getByText('failing', { exact: true }).waitFor();
    await log.getByRole('button', { name: 'Redeliver order.paid' }).click();
    await log.getByText('Queued: it is sent again now').waitFor();
    await look(page, 'operator-webhooks-failing');
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it('operator: starts a verification with a return address and a QR code, finds it by reference, and checks a log record in the browser', async () => {
    const tenant = await identityTenant(live.server);
    const { page, errors, context } = await signedIn(
      live.server,
      live.browser,
      `/console/operator/profiles/${tenant.profileId}/verifications`,
      ['console.adminToken', ADMIN_TOKEN],
    );
    await page.getByLabel('Reference (optional)').fill('Desk-9 walk-in');
    await page.getByLabel('Return address after capture (optional, https://)').fill('https://127.0.0.1:9/after');
    await page.getByRole('button', { name: 'Start verification' }).click();
    const qr = page.getByRole('img', { name: 'QR code of the capture link' });
    await qr.waitFor();
    const box = (await qr.boundingBox())!;
    expect(box.width).toBe(box.height);
    expect(box.width).toBeGreaterThanOrEqual(150);
    const link = (await page.getByTestId('secret').textContent())!;
    const started = (await live.server.admin('GET', `/profiles/${tenant.profileId}/verifications?reference=desk-9`)).data.items;
    expect(started).toHaveLength(1);
    expect(link).toContain('/capture#');
    await look(page, 'operator-verification-started-qr');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await live.server.admin('POST', `/profiles/${tenant.profileId}/verifications`, { reference: 'other 1' }, 201);
    await page.reload();
    await page.getByLabel('Find by reference').fill('DESK-9');
    const table = page.getByRole('table', { name: 'Verifications' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await table.getByText('Desk-9 walk-in').waitFor();
    await page.getByLabel('Find by reference').fill('no such thing');
    await page.getByText('Nothing found for “no such thing”.').waitFor();
    await look(page, 'operator-verifications-search');

    const gov = await governedTenant(live.server);
    for (let i = 0; i < 6; i++)
      expect((await call(live.server, 'POST', '/v1/governance/decisions', goodDecision(live.server), gov.key)).status).toBe(201);
    await page.goto(`${live.server.url}/console/operator/profiles/${gov.profileId}/log`);
    await page.getByTestId('log-size').getByText('6 records').waitFor();
    await page
      .getByTestId('log-witnesses')
      .getByText(/no cosignatures/)
      .waitFor();
    await page.getByLabel('Record (seq, 1 to 6)').fill('5');
    await page.getByLabel('Record (seq, 1 to 6)').press('Enter');
    await page
      .getByTestId('inclusion-result')
      .getByText(/^Record 5 is in the checkpoint of 6 records: checked in this browser/)
      .waitFor();
    await look(page, 'operator-transparency-log');
    await page.getByLabel('Record (seq, 1 to 6)').fill('9');
    await page.getByRole('button', { name: 'Check in this browser' }).click();
    await expect.poll(() => page.getByTestId('inclusion-result').count()).toBe(0);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);
});
