import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import { CLEAN, renderDocument, type DocumentSpec } from '../../scripts/documents/render.js';
import { portraitPath } from '../../scripts/documents/fixture-set.js';
import { api, file, settle, type Part } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { axeViolations } from './axe.js';
import { browserAvailable, collectPageErrors, DESKTOP, screenshot } from './browser.js';
import { posedStill } from './camera.js';
import {
  launchWithCamera,
  passIntro,
  phonePage,
  photoNumber,
  poseCheck,
  startCaptureServer,
  waitForScreen,
  type CaptureServer,
} from './capture-page.js';

/**
 * The "done when" in a browser, with DOCUMENT_READING=on (real OCR) and face checks as the
 * other capture page tests run them: a generated ID card goes through the hosted page and is
 * approved on the zone read from its back; a reviewer confirms a zone read from the images, and
 * enters one the reading could not find, in the console.
 */
const HOLDER: Holder = {
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  documentNumber: 'L898902C3',
  issuingCountry: 'D',
  nationality: 'D',
  birthDate: '740812',
  sex: 'F',
  expiryDate: '300415',
};
const CARD: DocumentSpec = { format: 'TD1', holder: HOLDER, portrait: portraitPath('person-a-1'), layout: 0.3 };
/**
 * The reviewer's card: another document number than CARD's, as a number already used by the
 * profile sends a verification to review as document_reused (docs/document-reading.md, "Document reading"), and the
 * two tests share one profile.
 */
const REVIEWED_HOLDER: Holder = { ...HOLDER, documentNumber: 'X12345678' };
const REVIEWED_CARD: DocumentSpec = { ...CARD, holder: REVIEWED_HOLDER };
/** A phone photo of the card, in the range of the generator's "phone photo" difficulty (docs/document-reading.md, "Document reading"). */
const PHONE_PHOTO = { rotation: 2, perspective: 0.02, blurSigma: 0.6, jpegQuality: 75, width: 1100, coverage: 0.85, brightness: 0.95 };
const NOTE = 'Zone compared character by character with the document images.';

async function look(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
}

describe.skipIf(!browserAvailable())('document reading through the hosted page and the reviewer console', { timeout: 300_000 }, () => {
  let server: CaptureServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startCaptureServer({ DOCUMENT_READING: 'on' });
    // The camera refused: every photo comes through "choose a photo", the path a phone's camera app also takes.
    browser = await launchWithCamera('deny');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('an ID card photographed front and back through the hosted page is approved on the zone read from its back, and its claims are attested', async () => {
    const front = await renderDocument(CARD, 'front', CLEAN, 11);
    const back = await renderDocument(CARD, 'back', PHONE_PHOTO, 12);
    const v = await server.newVerification();
    const { context, page, errors } = await phonePage(browser);
    try {
      await page.goto(v.url);
      await passIntro(page, 'id_card');
      await page.getByText('The camera is blocked').waitFor({ timeout: 30_000 });
      await page.locator('input[type="file"]').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: front });
      await page.getByRole('button', { name: 'Use this photo' }).click();
      await page.getByRole('heading', { level: 1, name: 'Now the back of your ID card' }).waitFor();
      await page.locator('input[type="file"]').setInputFiles({ name: 'back.jpg', mimeType: 'image/jpeg', buffer: back });
      await page.getByRole('heading', { level: 1, name: 'Check both photos' }).waitFor();
      await screenshot(page, 'reading-card-both-preview');
      await page.getByRole('button', { name: 'Send both photos' }).click();
      await waitForScreen(page, 'challenge');

      const { of: total } = (await photoNumber(page))!;
      const steps = await server.challenge(v.token);
      expect(await poseCheck(page)).toBe('ready');
      for (let n = 1; n <= total; n++) {
        await page
          .locator('input[type="file"]')
          .setInputFiles({ name: `selfie-${n}.jpg`, mimeType: 'image/jpeg', buffer: posedStill(steps[n - 1]!.pose, n, n * 5) });
        await page.getByRole('button', { name: 'Send this photo' }).click();
        if (n < total)
          await page.locator('main[data-screen="challenge"] .step', { hasText: `photo ${n + 1} of` }).waitFor({ timeout: 30_000 });
      }
      await waitForScreen(page, 'done');
      expect(errors.filter((e) => !/Permission|NotAllowed/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }

    const decided = await settle(server, server.tenant.backend, v.id);
    expect(decided).toMatchObject({
      status: 'approved',
      document: { type: 'id_card', issuing_country: 'D', expires_on: '2030-04-15', mrz_source: 'image' },
    });
    const age = await api(server).call('POST', `/v1/attestations/${v.id}`, server.tenant.backend, { claim: 'age_over_18' }, 201);
    expect(age.json().value).toBe(true);
  });

  it('a reviewer sees the zone read beside both sides and confirms it; enters a zone the reading could not find, and is told in words when it is refused', async () => {
    const a = api(server);
    let seed = 7100;
    /** A verification through capture with these document parts, every frame noise; settled. */
    const capture = async (parts: Part[]) => {
      const v = await a.createVerification(server.tenant.backend);
      expect((await a.upload('document', v.handoff_token, parts)).statusCode).toBe(201);
      for (const { step } of (await a.challenge(v.handoff_token)).json().steps) {
        const frame = file(png(640, 480, { seed: seed++ }));
        expect((await a.upload('selfie', v.handoff_token, [{ name: 'step', value: String(step) }, frame])).statusCode).toBe(201);
      }
      return settle(server, server.tenant.backend, v.id);
    };
    // The same card twice: the second is document_reused, with its zone read from the back.
    const sides = [
      file(await renderDocument(REVIEWED_CARD, 'front', CLEAN, 21), 'front.jpg'),
      { name: 'back', filename: 'back.jpg', data: await renderDocument(REVIEWED_CARD, 'back', CLEAN, 22) },
    ];
    expect((await capture(sides)).status).toBe('approved');
    const reused = await capture(sides);
    expect(reused).toMatchObject({ status: 'manual_review', decision_reason: 'document_reused', document: { mrz_source: 'image' } });
    // A photo with no zone: document_unreadable, nothing read.
    const unread = await capture([file(readFileSync(portraitPath('person-b-1')), 'photo.jpg')]);
    expect(unread).toMatchObject({ status: 'manual_review', decision_reason: 'document_unreadable', document: null });

    const context = await browser.newContext({ viewport: DESKTOP, timezoneId: 'Europe/Amsterdam' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${server.url}/console/review`);
      await page.getByLabel('Reviewer API key').fill(server.tenant.reviewer);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('document_reused').waitFor();

      // The reused card: the zone read, in monospace and in words, beside the front and the back.
      await page.goto(`${server.url}/console/review/${reused.id}`);
      const zone = page.getByTestId('zone');
      await zone.waitFor();
      const lines = mrzLines('TD1', REVIEWED_HOLDER);
      expect(await page.getByTestId('zone-source').textContent()).toMatch(/^Read from the document images/);
      expect(await page.getByTestId('zone-lines').textContent()).toBe(lines.join('\n'));
      const fields = await page
        .getByTestId('zone-fields')
        .evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
      expect(fields).toEqual(
        expect.arrayContaining([
          ['Document type', 'Identity card (I)'],
          ['Surname', 'ERIKSSON'],
          ['Given names', 'ANNA MARIA'],
          ['Document number', 'X12345678'],
          ['Date of birth', '12 August 1974'],
          ['Sex', 'Female'],
          ['Expires', '15 April 2030'],
        ]),
      );
      await page.getByRole('button', { name: 'Document, back: open full size' }).locator('img').waitFor();
      await page.getByRole('button', { name: 'Document, front: open full size' }).locator('img').waitFor();
      await look(page, 'reviewer-zone-read');

      // Approving: the field holds what was read; confirmed as it is.
      await page.getByLabel('Approve', { exact: true }).check();
      const field = page.getByLabel('Confirm the lines as printed on the document, or correct them (one line per row)');
      expect(await field.inputValue()).toBe(lines.join('\n'));
      await page.getByText('Every check digit holds.', { exact: true }).waitFor();
      await page.getByLabel(/^Note/).fill(NOTE);
      await look(page, 'reviewer-zone-confirm');
      await page.getByRole('button', { name: 'Submit decision' }).click();
      await page.getByText(`Case ${reused.id.slice(0, 8)}: approved.`).waitFor();
      const confirmed = (await a.call('GET', `/v1/verifications/${reused.id}`, server.tenant.backend, undefined, 200)).json();
      expect(confirmed).toMatchObject({ status: 'approved', document: { type: 'id_card', mrz_source: 'reviewer' } });
      const view = (await a.call('GET', `/v1/review/${reused.id}`, server.tenant.reviewer, undefined, 200)).json();
      expect(view.audit.map((e: { type: string }) => e.type)).toContain('review.mrz_confirmed');

      // The front alone: nothing read, so the reviewer types the zone from the card.
      await page.goto(`${server.url}/console/review/${unread.id}`);
      await page
        .getByTestId('zone-source')
        .getByText(/^Nothing was read/)
        .waitFor();
      expect(await page.getByTestId('zone-lines').count()).toBe(0);
      await page.getByLabel('Approve', { exact: true }).check();
      expect(await field.inputValue()).toBe('');
      await page.getByText(/^Empty: the approval carries no zone/).waitFor();
      // A typo in the birth date: the page says which check digits fail, and the service refuses it.
      const typo = [lines[0], lines[1]!.replace('740812', '740813'), lines[2]].join('\n');
      await field.fill(typo);
      await page.getByText('The check digit of the birth date does not hold (line 2, character 7).').waitFor();
      await page.getByLabel(/^Note/).fill(NOTE);
      await page.getByRole('button', { name: 'Submit decision' }).click();
      const refused = page.getByRole('alert').filter({ hasText: /^Not approved: the service did not accept the machine-readable zone/ });
      await refused.waitFor();
      expect(await refused.textContent()).toContain('The check digit of the birth date does not hold');
      await look(page, 'reviewer-zone-refused');
      expect((await a.call('GET', `/v1/verifications/${unread.id}`, server.tenant.backend, undefined, 200)).json().status).toBe(
        'manual_review',
      );
      // Corrected, lower case and with spaces as a person types them: accepted, and the claims follow the zone.
      await field.fill(` ${lines[0]!.toLowerCase()}\n${lines[1]}\n${lines[2]} `);
      await page.getByText('Every check digit holds.', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Submit decision' }).click();
      await page.getByText('The queue is empty').waitFor();
      const entered = (await a.call('GET', `/v1/verifications/${unread.id}`, server.tenant.backend, undefined, 200)).json();
      expect(entered).toMatchObject({ status: 'approved', document: { type: 'id_card', issuing_country: 'D', mrz_source: 'reviewer' } });
      const nationality = await a.call('POST', `/v1/attestations/${unread.id}`, server.tenant.backend, { claim: 'nationality' }, 201);
      expect(nationality.json().value).toBe('D');
      expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
