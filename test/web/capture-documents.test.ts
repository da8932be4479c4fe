import { sql } from 'drizzle-orm';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { axeViolations } from './axe.js';
import { browserAvailable, screenshot } from './browser.js';
import { still } from './camera.js';
import {
  chooseDocument,
  launchWithCamera,
  passIntro,
  phonePage,
  startCaptureServer,
  waitForScreen,
  type CaptureServer,
} from './capture-page.js';

/** A screenshot to look at, and the screen as it is now free of serious and critical axe violations. */
async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
}

/** 320 CSS px (a phone at 200 % zoom): nothing sticks out sideways; a screenshot at that width, then back to 390. */
async function narrow(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
  await screenshot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
}

/** What the server stored of the document: the front and, for a card, the back with its size. */
async function storedDocument(server: CaptureServer, id: string) {
  const [row] = rowsOf<{ document_blob: string | null; document_back_blob: string | null; document_back_width: number | null }>(
    await server.app.db.execute(
      sql`select document_blob, document_back_blob, document_back_width from identity_verifications where id = ${id}`,
    ),
  );
  if (!row) throw new Error(`verification ${id} not found`);
  return { front: row.document_blob !== null, back: row.document_back_blob !== null, backWidth: row.document_back_width };
}

describe.skipIf(!browserAvailable())('hosted capture page: a passport or an ID card (390×844 and 320 px)', { timeout: 180_000 }, () => {
  let server: CaptureServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startCaptureServer();
    browser = await launchWithCamera('allow');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('an ID card with the camera: the front, then the back with the zone band in the guide, both checked and sent in one upload', async () => {
    const v = await server.newVerification();
    const { context, page, errors } = await phonePage(browser);
    const uploads: Request[] = [];
    page.on('request', (r) => r.url().endsWith('/v1/capture/document') && uploads.push(r));
    const shot = (name: string) => look(page, `capture-card-${name}`);
    try {
      await page.goto(v.url);
      await passIntro(page, null);
      await page.getByRole('heading', { level: 1, name: 'Which document will you use?' }).waitFor();
      await shot('choice');
      await narrow(page, 'capture-card-choice-320');
      await chooseDocument(page, 'id_card');

      await page.getByRole('heading', { level: 1, name: 'Photograph the front of your ID card' }).waitFor();
      await page.getByText('photo 1 of 2').waitFor();
      await page.locator('svg[data-guide="id_card-front"]').waitFor();
      const take = page.getByRole('button', { name: 'Take photo' });
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await shot('front-camera');
      await take.click();
      await page.getByRole('img', { name: /photo of the front of your ID card, to check before going on/ }).waitFor();
      await shot('front-preview');
      expect(uploads).toHaveLength(0);
      await page.getByRole('button', { name: 'Use this photo' }).click();

      await page.getByRole('heading', { level: 1, name: 'Now the back of your ID card' }).waitFor();
      await page.getByText('photo 2 of 2').waitFor();
      // The guide of the back shows where the three machine-readable lines go.
      const guide = page.locator('svg[data-guide="id_card-back"]');
      await guide.waitFor();
      expect(await guide.locator('.zone-band line').count()).toBe(3);
      expect(await page.locator('main').textContent()).toContain('lines of letters and <<< signs inside the shaded band');
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await shot('back-camera');
      await narrow(page, 'capture-card-back-camera-320');
      await take.click();

      await page.getByRole('heading', { level: 1, name: 'Check both photos' }).waitFor();
      await page.getByRole('img', { name: /front of your ID card/ }).waitFor();
      await page.getByRole('img', { name: /back of your ID card/ }).waitFor();
      await shot('both-preview');
      await narrow(page, 'capture-card-both-preview-320');
      // The back taken again: the front stays.
      await page.getByRole('button', { name: 'Take the back again' }).click();
      await page.getByRole('heading', { level: 1, name: 'Now the back of your ID card' }).waitFor();
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await take.click();
      await page.getByRole('button', { name: 'Send both photos' }).click();
      await waitForScreen(page, 'challenge');

      // One upload carried both sides (the fake camera's frames are 640 wide).
      expect(uploads).toHaveLength(1);
      expect((await server.captureStatus(v.token)).next_step).toMatchObject({ type: 'selfie', step: 0 });
      expect(await storedDocument(server, v.id)).toEqual({ front: true, back: true, backWidth: 640 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a passport from a chosen photo: the guide puts the two zone lines at the foot of the page, and one image is sent', async () => {
    const v = await server.newVerification();
    const { context, page, errors } = await phonePage(browser);
    const uploads: Request[] = [];
    page.on('request', (r) => r.url().endsWith('/v1/capture/document') && uploads.push(r));
    try {
      await page.goto(v.url);
      await passIntro(page, 'passport');
      await page.getByRole('heading', { level: 1, name: 'Photograph your passport’s photo page' }).waitFor();
      const guide = page.locator('svg[data-guide="passport-front"]');
      await guide.waitFor();
      expect(await guide.locator('.zone-band line').count()).toBe(2);
      await expect.poll(() => page.getByRole('button', { name: 'Take photo' }).isEnabled(), { timeout: 30_000 }).toBe(true);
      await look(page, 'capture-passport-camera');
      await narrow(page, 'capture-passport-camera-320');

      // "Choose a photo instead" takes the same place as the camera.
      await page.locator('input[type="file"]').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: still(2) });
      await page.getByRole('img', { name: /photo of your passport’s photo page, to check before sending/ }).waitFor();
      await look(page, 'capture-passport-preview');
      await page.getByRole('button', { name: 'Send this photo' }).click();
      await waitForScreen(page, 'challenge');
      expect(uploads).toHaveLength(1);
      expect(await storedDocument(server, v.id)).toEqual({ front: true, back: false, backWidth: null });

      // Changing one's mind before sending goes back to the choice.
      const other = await server.newVerification();
      await page.goto(other.url);
      await passIntro(page, 'id_card');
      await page.getByRole('button', { name: 'Use a different document' }).click();
      await page.getByRole('heading', { level: 1, name: 'Which document will you use?' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
