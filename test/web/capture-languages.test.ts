import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { png } from '../../scripts/fixtures/images.js';
import { api, passportMrz } from '../helpers/identity.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot } from './browser.js';
import { still } from './camera.js';
import { useCapturePage, waitForScreen } from './capture-page.js';

/** The narrowest phone the page is made for: German's long words must wrap here, never widen the page. */
const NARROW_PHONE = { width: 360, height: 780 };

/** Text that sticks out of the 360 px page or out of its own box (visually hidden helpers aside), described for the failure. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const width = doc.documentElement.clientWidth;
    const found: string[] = [];
    if (doc.documentElement.scrollWidth > width) found.push(`the page is ${doc.documentElement.scrollWidth}px wide`);
    for (const el of doc.querySelectorAll('h1, h2, p, li, button, label, a, figcaption')) {
      if (el.closest('.visually-hidden')) continue;
      const box = el.getBoundingClientRect();
      if (box.right > width + 0.5 || el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}" (${Math.round(box.right)}px)`);
    }
    return found;
  });
}

const lang = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.lang as string);
const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
/** The focused element, as `value` for a radio and its text otherwise. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as any).document.activeElement;
    return (el?.type === 'radio' ? el.value : el?.textContent?.trim()) as string;
  });

/** Presses `key` until the focus is on `target` (see `focused`): the way a keyboard reaches it. */
async function keyTo(page: Page, key: 'Tab' | 'Shift+Tab', target: string): Promise<void> {
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press(key);
    if ((await focused(page)) === target) return;
  }
  throw new Error(`the keyboard (${key}) never reached "${target}"`);
}

const tapLanguage = (page: Page, name: string) => page.locator('header.languages label', { hasText: name }).tap();

describe.skipIf(!browserAvailable())(
  'hosted capture page in English, Dutch and German (Accept-Language, the switcher)',
  { timeout: 240_000 },
  () => {
    // The camera refused: the screens then hold no live video, so what is on them stays put for the screenshots.
    const live = useCapturePage('deny');

    it('opens in Dutch for nl-NL; the keyboard switches to German, which keeps the person’s place and stays after a reload', async () => {
      const v = await live.server.newVerification();
      const { name } = (await live.server.captureStatus(v.token)).requester;
      const context: BrowserContext = await live.browser.newContext({
        viewport: NARROW_PHONE,
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 1,
        locale: 'nl-NL',
      });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const served: (string | undefined)[] = [];
      page.on('response', (r) => new URL(r.url()).pathname === '/capture' && served.push(r.headers()['content-language']));
      try {
        // Accept-Language nl-NL: Dutch from the served page on.
        await page.goto(v.url);
        await waitForScreen(page, 'intro');
        expect(served).toEqual(['nl']);
        expect(await lang(page)).toBe('nl');
        expect(await page.title()).toBe('Uw identiteit verifiëren');
        expect(await h1(page)).toBe(`${name} vraagt u uw identiteit te verifiëren`);
        await page.getByRole('button', { name: 'Ik ga akkoord' }).waitFor();
        expect(await page.getByRole('radio', { name: 'Nederlands' }).isChecked()).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        expect(await overflowing(page)).toEqual([]);
        await screenshot(page, 'capture-phone-intro-nl');

        // Keyboard only: from the title (focused on arrival) back into the switcher, an arrow key to
        // German; the focus stays on the switcher, the page says so, and on to "I agree" by Tab.
        await keyTo(page, 'Shift+Tab', 'nl');
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => h1(page)).toBe(`${name} bittet Sie, Ihre Identität zu bestätigen`);
        expect(await focused(page)).toBe('de');
        expect(await lang(page)).toBe('de');
        expect(await page.title()).toBe('Identität bestätigen');
        await expect.poll(() => page.getByRole('status').textContent()).toBe('Die Seite ist jetzt auf Deutsch.');
        await keyTo(page, 'Tab', 'Ich stimme zu');
        await page.keyboard.press('Enter');
        await waitForScreen(page, 'document');

        // A refused photo in German; switching language rewords the screen and its notice, on the same step.
        await page.getByRole('button', { name: /^Reisepass/ }).click();
        await page.getByRole('heading', { level: 1, name: 'Fotografieren Sie die Datenseite Ihres Reisepasses' }).waitFor();
        await page.getByText('Die Kamera ist für diese Seite blockiert').waitFor({ timeout: 30_000 });
        await page
          .locator('input[type="file"]')
          .setInputFiles({ name: 'noise.png', mimeType: 'image/png', buffer: png(640, 480, { seed: 5, noisyRows: 480 }) });
        await page
          .getByRole('alert')
          .filter({ hasText: 'Nicht verwendet: Auf diesem Foto ist kein Ausweisdokument zu erkennen.' })
          .waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await overflowing(page)).toEqual([]);
        await screenshot(page, 'capture-phone-document-de');
        // A tap on the visible name (the radio itself is visually hidden).
        await tapLanguage(page, 'Nederlands');
        await page.getByRole('alert').filter({ hasText: 'Niet gebruikt: We vinden geen document op deze foto.' }).waitFor();
        expect(await h1(page)).toBe('Fotografeer de fotopagina van uw paspoort');
        await tapLanguage(page, 'Deutsch');
        await page.getByRole('heading', { level: 1, name: 'Fotografieren Sie die Datenseite Ihres Reisepasses' }).waitFor();

        // A reload asks in Dutch again (the browser's Accept-Language), but the person chose German.
        await page.reload();
        await waitForScreen(page, 'document');
        expect(served).toEqual(['nl', 'nl']);
        await page.getByRole('heading', { level: 1, name: 'Welches Ausweisdokument verwenden Sie?' }).waitFor();
        expect(await lang(page)).toBe('de');
        expect(await page.title()).toBe('Identität bestätigen');
        expect(await page.getByRole('radio', { name: 'Deutsch' }).isChecked()).toBe(true);

        // On to the challenge, in German: its instruction, step and pose drawing.
        await page.getByRole('button', { name: /^Reisepass/ }).click();
        await page.locator('input[type="file"]').setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: still(2) });
        await page.getByRole('img', { name: 'Das Foto der Datenseite Ihres Reisepasses, zum Prüfen vor dem Senden' }).waitFor();
        await page.getByRole('button', { name: 'Dieses Foto senden' }).click();
        await waitForScreen(page, 'challenge');
        expect(await page.locator('main .step').textContent()).toMatch(/^Schritt 2 von 2 · Foto 1 von [3-5]$/);
        expect(await h1(page)).toMatch(
          /^(Drehen Sie den Kopf leicht zu Ihrer eigenen (linken|rechten) Seite|Schauen Sie direkt in die Kamera)/,
        );
        await page.getByRole('img', { name: /^Zeichnung: / }).waitFor();
        await page.getByText('Selfie aufnehmen oder auswählen').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(await overflowing(page)).toEqual([]);
        await screenshot(page, 'capture-phone-challenge-de');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows the computer’s “Continue on your phone” page in German for de-DE, following the phone in German', async () => {
      const v = await live.server.newVerification();
      const context = await live.browser.newContext({ viewport: DESKTOP, locale: 'de-DE' });
      const page = await context.newPage();
      try {
        await page.goto(v.url);
        await waitForScreen(page, 'handoff');
        expect(await lang(page)).toBe('de');
        expect(await h1(page)).toBe('Auf dem Smartphone fortfahren');
        await page.getByRole('img', { name: 'QR-Code mit der Adresse dieser Seite, um sie auf Ihrem Smartphone zu öffnen' }).waitFor();
        const progress = page.getByRole('region', { name: 'Fortschritt auf Ihrem Smartphone' });
        const doc = await api(live.server).upload('document', v.token, [
          { name: 'file', filename: 'passport.jpg', data: still(2) },
          { name: 'mrz', value: passportMrz() },
        ]);
        expect(doc.statusCode, doc.body).toBe(201);
        await progress.locator('li.done', { hasText: 'Foto des Ausweisdokuments' }).waitFor({ timeout: 20_000 });
        await progress.getByText('Ihr Smartphone nimmt die Fotos auf…').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, 'capture-desktop-following-de');
      } finally {
        await context.close();
      }
    });
  },
);
