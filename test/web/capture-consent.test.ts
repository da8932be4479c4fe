import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { png } from '../../scripts/fixtures/images.js';
import { api, passportMrz } from '../helpers/identity.js';
import { axeViolations } from './axe.js';
import { browserAvailable, DESKTOP, screenshot } from './browser.js';
import { still } from './camera.js';
import { passIntro, phonePage, useCapturePage, waitForScreen } from './capture-page.js';

/** Presses Tab until the button named `name` has the focus, then Enter: the way a keyboard reaches it. */
async function pressByKeyboard(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim())) === name) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`the keyboard never reached "${name}"`);
}

describe.skipIf(!browserAvailable())(
  'hosted capture page: consent, checks before sending, the computer following the phone',
  { timeout: 240_000 },
  () => {
    const live = useCapturePage('allow');

    it('asks for consent with the privacy policy before the camera opens; "No, thanks" by keyboard ends on a clear page and is recorded', async () => {
      await live.server.admin(
        'PATCH',
        `/profiles/${live.server.tenant.profileId}`,
        { privacyPolicyUrl: 'https://shop.example/privacy' },
        200,
      );
      const v = await live.server.newVerification();
      const { context, page, errors } = await phonePage(live.browser);
      try {
        await page.goto(v.url);
        await waitForScreen(page, 'intro');
        const policy = page.getByRole('link', { name: /privacy policy/ });
        expect(await policy.getAttribute('href')).toBe('https://shop.example/privacy');
        // The camera is not asked for before the person agrees.
        expect(await page.locator('video').count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-phone-consent');

        await pressByKeyboard(page, 'No, thanks');
        await waitForScreen(page, 'declined');
        await page.getByRole('heading', { level: 1, name: 'You declined: nothing was sent' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-phone-declined');
        const read = await live.server.verification(v.id);
        expect(read).toMatchObject({ status: 'awaiting_capture', stage: 'document', consent_declined_at: expect.any(String) });
        // A reload says the same, not "expired".
        await page.reload();
        await waitForScreen(page, 'declined');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await live.server.admin('PATCH', `/profiles/${live.server.tenant.profileId}`, { privacyPolicyUrl: null }, 200);
      }
    });

    it('refuses a document photo it can check (no document, too small) in words, shows the server’s image_too_small with a retry, and offers no file for selfies while the camera works', async () => {
      const v = await live.server.newVerification();
      const { context, page } = await phonePage(live.browser);
      const uploads: string[] = [];
      page.on('request', (r) => r.url().endsWith('/v1/capture/document') && uploads.push(r.method()));
      try {
        await page.goto(v.url);
        await passIntro(page, 'passport');
        const input = page.locator('input[type="file"]');

        // Random noise offered as a passport: nothing is sent.
        await input.setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer: png(640, 480, { seed: 5, noisyRows: 480 }) });
        await page.getByRole('alert').filter({ hasText: 'We cannot find a document' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-phone-check-no-document');

        // Under the server's minimum size: said before sending.
        const small = await sharp(still(2)).resize(200, 150, { fit: 'fill' }).jpeg().toBuffer();
        await input.setInputFiles({ name: 'small.jpg', mimeType: 'image/jpeg', buffer: small });
        await page.getByRole('alert').filter({ hasText: 'too small to be checked' }).waitFor();
        await screenshot(page, 'capture-phone-check-too-small');
        expect(uploads).toEqual([]);

        // What the server still refuses at upload is shown, and the person takes it again.
        await page.route('**/v1/capture/document', (route) =>
          route.fulfill({
            status: 422,
            contentType: 'application/json',
            body: '{"detail":"The image is too small","code":"image_too_small"}',
          }),
        );
        await input.setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: still(2) });
        await page.getByRole('button', { name: 'Send this photo' }).click();
        await page.getByRole('alert').filter({ hasText: 'too few pixels' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-phone-upload-image-too-small');
        await page.unroute('**/v1/capture/document');
        await page.locator('input[type="file"]').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: still(2) });
        await page.getByRole('button', { name: 'Send this photo' }).click();
        await waitForScreen(page, 'challenge');

        // Selfies come from the camera: no file picker beside it.
        await expect.poll(() => page.getByRole('button', { name: 'Take photo' }).isEnabled(), { timeout: 30_000 }).toBe(true);
        expect(await page.locator('input[type="file"]').count()).toBe(0);
        expect(await page.getByText('Choose a photo').count()).toBe(0);
      } finally {
        await context.close();
      }
    });

    it('on the computer follows the phone: each step done, then Done with the requester’s name', async () => {
      const v = await live.server.newVerification();
      const { name } = (await live.server.captureStatus(v.token)).requester;
      const context = await live.browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      try {
        await page.goto(v.url);
        await waitForScreen(page, 'handoff');
        const progress = page.getByRole('region', { name: 'Progress on your phone' });
        await progress.waitFor();
        expect(await axeViolations(page)).toEqual([]);

        // The phone sends the document.
        const a = api(live.server);
        const doc = await a.upload('document', v.token, [
          { name: 'file', filename: 'passport.jpg', data: still(2) },
          { name: 'mrz', value: passportMrz() },
        ]);
        expect(doc.statusCode, doc.body).toBe(201);
        await progress.locator('li.done', { hasText: 'Photo of the document' }).waitFor({ timeout: 20_000 });
        const steps = await live.server.challenge(v.token);
        await live.server.uploadFrame(v.token, steps[0]!.step, still(0));
        await progress.getByText(`Photos of your face (1 of ${steps.length})`).waitFor({ timeout: 20_000 });
        await screenshot(page, 'capture-desktop-following');
        for (const s of steps.slice(1)) await live.server.uploadFrame(v.token, s.step, still(s.step % 3));

        await waitForScreen(page, 'done', 20_000);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Done — ${name} has your photos`);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-desktop-followed-done');
      } finally {
        await context.close();
      }
    });
  },
);
