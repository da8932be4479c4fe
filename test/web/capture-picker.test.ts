import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/client.js';
import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './browser.js';
import { posedStill, still } from './camera.js';
import { passIntro, phonePage, photoNumber, poseCheck, waitForScreen, useCapturePage } from './capture-page.js';

describe.skipIf(!browserAvailable())('hosted capture page with the camera refused: the file picker (390×844)', { timeout: 180_000 }, () => {
  const live = useCapturePage('deny');

  it('takes the document and every challenge photo from files and finishes', async () => {
    const v = await live.server.newVerification();
    const { context, page, errors } = await phonePage(live.browser);
    const shot = (name: string) => screenshot(page, `capture-phone-picker-${name}`);
    try {
      await page.goto(v.url);
      await passIntro(page);
      await page.getByText('The camera is blocked').waitFor({ timeout: 30_000 });
      const documentInput = page.locator('input[type="file"]');
      expect(await documentInput.getAttribute('accept')).toBe('image/*');
      expect(await documentInput.getAttribute('capture')).toBe('environment');
      await shot('document');

      // A file that is no picture: said in plain words, nothing sent.
      await documentInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
      await page.getByRole('alert').filter({ hasText: 'not a photo' }).waitFor();
      expect((await live.server.captureStatus(v.token)).next_step).toEqual({ type: 'document' });

      await documentInput.setInputFiles({ name: 'document.jpg', mimeType: 'image/jpeg', buffer: still(0) });
      await page.getByRole('button', { name: 'Send this photo' }).click();
      await waitForScreen(page, 'challenge');
      await page.getByText('The camera is blocked').waitFor();
      const frameInput = page.locator('input[type="file"]');
      expect(await frameInput.getAttribute('capture')).toBe('user');
      await shot('challenge');

      const { of: total } = (await photoNumber(page))!;
      const steps = await live.server.challenge(v.token);
      expect(await poseCheck(page)).toBe('ready');
      const selfies: string[] = [];
      page.on('request', (r) => r.url().endsWith('/v1/capture/selfie') && selfies.push(r.method()));

      // A photo whose pose contradicts the step is refused in words, with no way to send it.
      const wrong = steps[0]!.pose === 'left' ? 'right' : 'left';
      await frameInput.setInputFiles({ name: 'wrong.jpg', mimeType: 'image/jpeg', buffer: posedStill(wrong) });
      await page.getByRole('alert').filter({ hasText: 'This photo cannot be used' }).waitFor({ timeout: 30_000 });
      expect(await page.getByRole('button', { name: 'Send this photo' }).count()).toBe(0);
      await shot('challenge-refused');
      expect(selfies).toEqual([]);

      for (let n = 1; n <= total; n++) {
        const { pose } = steps[n - 1]!;
        await page
          .locator('input[type="file"]')
          .setInputFiles({ name: `selfie-${n}.jpg`, mimeType: 'image/jpeg', buffer: posedStill(pose, n, n * 5) });
        await page.getByRole('img', { name: /photo you chose/ }).waitFor();
        if (n === 1) await shot('challenge-preview');
        await page.getByRole('button', { name: 'Send this photo' }).click();
        if (n < total)
          await page.locator('main[data-screen="challenge"] .step', { hasText: `photo ${n + 1} of` }).waitFor({ timeout: 30_000 });
      }
      await waitForScreen(page, 'done');
      expect(selfies).toHaveLength(total);
      expect((await live.server.verification(v.id)).status).not.toBe('awaiting_capture');
      expect((await live.server.captureStatus(v.token)).uploaded_steps).toHaveLength(total);
      // Chosen because the camera was refused: every frame is marked as a file for the reviewer.
      const sources = rowsOf<{ source: string }>(
        await live.server.app.db.execute(sql`select source from identity_frames where verification_id = ${v.id}`),
      );
      expect(sources.map((r) => r.source)).toEqual(Array(total).fill('file'));
      // The camera refusal is reported by the browser; nothing else went wrong.
      expect(errors.filter((e) => !/Permission|NotAllowed/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
