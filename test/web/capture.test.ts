import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encode } from 'uqr';
import { browserAvailable, DESKTOP, screenshot } from './browser.js';
import {
  documentWithCamera,
  passIntro,
  phonePage,
  poseCheck,
  photoNumber,
  stepWithCamera,
  waitForScreen,
  useCapturePage,
} from './capture-page.js';

describe.skipIf(!browserAvailable())('hosted capture page on a phone with a camera (390×844)', { timeout: 180_000 }, () => {
  const live = useCapturePage('allow');

  it('goes from the capture_url through the intro, the document and every challenge step to "Done" with a way back, and the verification leaves awaiting_capture', async () => {
    const back = 'https://127.0.0.1:9/orders/42?verified=1';
    const v = await live.server.newVerification({ webhook_url: 'https://127.0.0.1:9/hooks', return_url: back });
    const { context, page, requests, errors } = await phonePage(live.browser);
    const shot = (name: string) => screenshot(page, `capture-phone-${name}`);
    try {
      await page.goto(v.url);
      // The intro: who asks (the profile's name), what is taken and what is kept; the camera waits for "Continue".
      await waitForScreen(page, 'intro');
      const name = (await live.server.captureStatus(v.token)).requester.name;
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`${name} asks you to verify your identity`);
      await expect(page.locator('main').textContent()).resolves.toMatch(/kept until .* erases your verification/);
      expect(await page.locator('video').count()).toBe(0);
      await shot('intro');
      await documentWithCamera(page, shot);
      await shot('challenge-step-1');
      const { of: total } = (await photoNumber(page))!;
      expect(total).toBeGreaterThanOrEqual(3);
      for (let n = 1; n <= total; n++) {
        if (n === 2) {
          // The countdown before the picture: the pose is held with the hands free.
          await page.getByRole('button', { name: 'Take photo' }).click();
          await page.getByRole('button', { name: /Hold still/ }).waitFor();
          await shot('challenge-countdown');
          await page
            .locator('main[data-screen="challenge"] .step', { hasText: 'photo 3 of' })
            .or(page.locator('main[data-screen="done"]'))
            .waitFor({ timeout: 30_000 });
          continue;
        }
        await stepWithCamera(page);
      }
      await waitForScreen(page, 'done');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Done — ${name} has your photos`);
      await expect(page.getByRole('button').count()).resolves.toBe(0);
      const link = page.getByRole('link', { name: `Back to ${name}` });
      expect(await link.getAttribute('href')).toBe(back);
      await shot('done');

      const after = await live.server.verification(v.id);
      expect(after.status).not.toBe('awaiting_capture');
      expect(after.stage).toBe('complete');
      await live.server.app.jobs.drain();
      expect(['approved', 'declined', 'manual_review']).toContain((await live.server.verification(v.id)).status);

      // Only this origin, and the token never in a request line.
      for (const url of requests) {
        // blob: URLs are the page's own previews, never fetched from anywhere.
        expect(url.startsWith(`${live.server.url}/`) || url.startsWith(`blob:${live.server.url}/`), url).toBe(true);
        expect(url, 'token in a URL').not.toContain(v.token);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('resumes at the challenge after a reload that follows the document, and at step 2 after a reload that follows step 1', async () => {
    const v = await live.server.newVerification();
    /**
     * Opens `p` (a reload or a new tab) and checks that it shows the step right after the uploaded
     * ones (at least `atLeast`), read between a look at the server before it opens and one after:
     * a page still open on the link may upload another step meanwhile (auto-capture).
     */
    const expectResumedAfterUploads = async (p: Page, open: () => Promise<unknown>, atLeast: number) => {
      const before = (await live.server.captureStatus(v.token)).uploaded_steps;
      await open();
      await waitForScreen(p, 'challenge');
      const shown = (await photoNumber(p))!.n;
      const after = (await live.server.captureStatus(v.token)).uploaded_steps;
      expect(before.length).toBeGreaterThanOrEqual(atLeast);
      expect(after).toEqual([...after.keys()]);
      expect(shown).toBeGreaterThanOrEqual(before.length + 1);
      expect(shown).toBeLessThanOrEqual(after.length + 1);
    };
    const { context, page, errors } = await phonePage(live.browser);
    try {
      await page.goto(v.url);
      await documentWithCamera(page);
      await page.reload();
      await waitForScreen(page, 'challenge');
      expect((await photoNumber(page))!.n).toBe(1);
      expect((await live.server.captureStatus(v.token)).next_step).toMatchObject({ type: 'selfie', step: 0 });

      // The page may take the next step by itself once the fake camera holds its pose (auto-capture),
      // so each reload is checked against what the server holds: the page resumes right after it.
      await stepWithCamera(page);
      await expectResumedAfterUploads(page, () => page.reload(), 1);
      await screenshot(page, 'capture-phone-resumed-step-2');

      // A second tab on the same link also resumes there: nothing is asked twice. The first tab
      // leaves the link first: left open, its auto-capture could finish the challenge while the
      // second one loads (CI saw the second tab open on "done" instead), and two pages running
      // the pose model at once on a loaded 2-core machine slow both past the wait.
      await stepWithCamera(page);
      await page.goto('about:blank');
      const other = await context.newPage();
      await expectResumedAfterUploads(other, () => other.goto(v.url), 2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says the link expired (ask the website for a new one) when the token expired or was replaced', async () => {
    const { context, page } = await phonePage(live.browser);
    try {
      const expired = await live.server.newVerification();
      live.server.clock.advance(31 * 60 * 1000);
      await page.goto(expired.url);
      await waitForScreen(page, 'expired');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link has expired');
      await expect(page.locator('main').textContent()).resolves.toContain('ask for a new link');
      await screenshot(page, 'capture-phone-expired');

      // An expired link the page never saw working knows no way back.
      expect(await page.getByRole('link').count()).toBe(0);

      // Replaced by a fresh handoff while the page was open: the next call says so too, with the way back.
      const back = 'https://127.0.0.1:9/shop/return';
      const replaced = await live.server.newVerification({ webhook_url: 'https://127.0.0.1:9/hooks', return_url: back });
      await page.goto(replaced.url);
      await passIntro(page);
      await live.server.app.inject({
        method: 'POST',
        url: `/v1/verifications/${replaced.id}/handoff`,
        headers: { authorization: `Bearer ${live.server.tenant.backend}` },
      });
      const take = page.getByRole('button', { name: 'Take photo' });
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await take.click();
      await page.getByRole('button', { name: 'Send this photo' }).click();
      await waitForScreen(page, 'expired');
      expect(await page.getByRole('link', { name: /^Back to / }).getAttribute('href')).toBe(back);
      await screenshot(page, 'capture-phone-expired-return');

      const missing = new URL(expired.url);
      missing.hash = '';
      await page.goto(missing.toString());
      await waitForScreen(page, 'no-link');
    } finally {
      await context.close();
    }
  });

  it('explains refused uploads, rate limits and a lost connection in plain words, and recovers', async () => {
    const v = await live.server.newVerification();
    const { context, page } = await phonePage(live.browser);
    const sendDocument = async () => {
      const take = page.getByRole('button', { name: 'Take photo' });
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await take.click();
      await page.getByRole('button', { name: 'Send this photo' }).click();
    };
    try {
      // The face models cannot be fetched: the page goes on without the pose check and says so.
      await page.route('**/capture/models/**', (route) => route.abort());
      await page.goto(v.url);
      await passIntro(page);

      await page.route('**/v1/capture/document', (route) =>
        route.fulfill({ status: 413, contentType: 'application/json', body: '{"detail":"too large"}' }),
      );
      await sendDocument();
      await page.getByRole('alert').filter({ hasText: 'larger than 15 MB' }).waitFor();
      await screenshot(page, 'capture-phone-error-413');

      await page.unroute('**/v1/capture/document');
      await page.route('**/v1/capture/document', (route) =>
        route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'retry-after': '2' },
          body: '{"detail":"Rate limit exceeded"}',
        }),
      );
      await sendDocument();
      await page
        .getByRole('alert')
        .filter({ hasText: /wait 2 seconds/ })
        .waitFor();
      await screenshot(page, 'capture-phone-error-429');
      // Sending waits out Retry-After.
      const send = page.getByRole('button', { name: 'Send this photo' });
      expect(await send.isDisabled()).toBe(true);
      await page.unroute('**/v1/capture/document');
      await expect.poll(() => send.isEnabled(), { timeout: 10_000 }).toBe(true);

      // Offline: the message says so, and the page carries on by itself when the network is back.
      await context.setOffline(true);
      await send.click();
      await page.getByRole('alert').filter({ hasText: 'offline' }).waitFor();
      await screenshot(page, 'capture-phone-offline');
      await context.setOffline(false);
      await waitForScreen(page, 'challenge');
      expect((await live.server.captureStatus(v.token)).next_step).toMatchObject({ type: 'selfie', step: 0 });
      expect(await poseCheck(page)).toBe('failed');
      await page.getByText('automatic check of your head position could not run').waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Take photo' }).isEnabled(), { timeout: 30_000 }).toBe(true);
      await screenshot(page, 'capture-phone-pose-check-failed');
    } finally {
      await context.close();
    }
  });

  it('on a computer offers the same link as a QR code first, then goes on there when asked', async () => {
    const v = await live.server.newVerification();
    const context = await live.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await page.goto(v.url);
      await waitForScreen(page, 'handoff');
      const qr = page.getByRole('img', { name: /QR code/ });
      await qr.waitFor();
      // The code holds this very page's address, token fragment included (drawn as one path of 1×1 modules).
      const drawn = await qr.locator('path').getAttribute('d');
      const expected = encode(v.url, { ecc: 'M', border: 4 });
      const modules = expected.data.flat().filter(Boolean).length;
      expect(drawn!.match(/M/g)!.length).toBe(modules);
      // The link points to this computer (127.0.0.1): a phone could not open it, and the page says so.
      await page.getByRole('alert').filter({ hasText: 'points to this computer' }).waitFor();
      await screenshot(page, 'capture-desktop-handoff');
      await page.getByRole('button', { name: 'Continue on this computer' }).click();
      await passIntro(page);
      const take = page.getByRole('button', { name: 'Take photo' });
      await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
      await screenshot(page, 'capture-desktop-document');
      // A reload keeps the choice: the QR code is not shown again.
      await page.reload();
      await waitForScreen(page, 'document');
    } finally {
      await context.close();
    }
  });
});
