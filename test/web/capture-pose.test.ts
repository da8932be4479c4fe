import { describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './browser.js';
import { posedStill } from './camera.js';
import { documentWithCamera, phonePage, photoNumber, poseCheck, waitForScreen, useCapturePage } from './capture-page.js';

/**
 * The pose check in the browser, with a camera that films a head turned to the person's own left
 * the whole time: a step asking for anything else is guided and refused before a byte is sent;
 * the left step is taken by itself.
 */
describe.skipIf(!browserAvailable())(
  'hosted capture page: the head pose is checked before a frame is sent (390×844)',
  { timeout: 240_000 },
  () => {
    const live = useCapturePage('allow', 'left');

    it('refuses a wrong turn with a retake prompt and sends nothing; the asked turn is captured without a press', async () => {
      const v = await live.server.newVerification();
      const { context, page } = await phonePage(live.browser);
      const selfies: number[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/v1/capture/selfie')) selfies.push(Date.now());
      });
      try {
        await page.goto(v.url);
        await documentWithCamera(page);
        expect(await poseCheck(page)).toBe('ready');
        const steps = await live.server.challenge(v.token);
        let refused = false;
        let captured = false;
        // The challenge's order is random: a step that is not "left" is refused here, then answered
        // past the page (as another device would) so that the page resumes at the next step.
        while (!(refused && captured)) {
          const at = (await photoNumber(page))!.n - 1;
          const { pose } = steps[at]!;
          if (pose === 'left') {
            const before = selfies.length;
            await page.locator('.guide-hint.good').waitFor({ timeout: 30_000 });
            await screenshot(page, 'capture-phone-pose-hold');
            // No press: the pose holds and the frame goes by itself.
            await expect.poll(() => selfies.length, { timeout: 30_000 }).toBe(before + 1);
            if (at + 1 < steps.length)
              await page.locator('main[data-screen="challenge"] .step', { hasText: `photo ${at + 2} of` }).waitFor({ timeout: 30_000 });
            else await waitForScreen(page, 'done');
            captured = true;
            continue;
          }
          const before = selfies.length;
          const hint = page.locator('.guide-hint');
          await expect
            .poll(() => hint.textContent(), { timeout: 30_000 })
            .toMatch(pose === 'right' ? /That is your left\. Turn your head to your right/ : /Look straight at the screen/);
          if (!refused) await screenshot(page, 'capture-phone-pose-guide');
          await page.getByRole('button', { name: 'Take photo' }).click();
          await page
            .getByRole('alert')
            .filter({ hasText: /^Not sent: / })
            .waitFor({ timeout: 30_000 });
          if (!refused) {
            await screenshot(page, 'capture-phone-pose-refused');
            // 320 CSS px (a phone at 200 % zoom): nothing sticks out sideways.
            await page.setViewportSize({ width: 320, height: 640 });
            expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
            await screenshot(page, 'capture-phone-320-challenge');
            await page.setViewportSize({ width: 390, height: 844 });
          }
          expect(selfies.length, 'a refused frame was sent').toBe(before);
          expect((await live.server.captureStatus(v.token)).uploaded_steps).not.toContain(at);
          refused = true;
          if (captured) break;
          await live.server.uploadFrame(v.token, at, posedStill(pose, at, at * 7));
          await page.reload();
          await page.locator('main[data-screen="challenge"] .step', { hasText: `photo ${at + 2} of` }).waitFor({ timeout: 30_000 });
          await poseCheck(page);
        }
        expect(refused && captured).toBe(true);
      } finally {
        await context.close();
      }
    });
  },
);
