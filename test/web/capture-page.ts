import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { api, HIGH_LIMITS, identityTenant, type IdentityTenant } from '../helpers/identity.js';
import { launchBrowser, PHONE, startServer, type LiveServer } from './browser.js';
import { cameraVideoFile, type Pose } from './camera.js';

/**
 * Chromium with a camera: the fake device plays test/web/camera.ts's video, and the permission
 * prompt is answered "allow" (`camera: 'allow'`) or left to headless Chromium, which refuses it
 * (`camera: 'deny'`: the page must fall back to the file picker).
 */
export function launchWithCamera(camera: 'allow' | 'deny', only?: Pose): Promise<Browser> {
  const args = ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${cameraVideoFile(only)}`];
  if (camera === 'allow') args.push('--use-fake-ui-for-media-stream');
  return launchBrowser(args);
}

/** A phone-sized page (touch, coarse pointer) that records the requests it makes. */
export async function phonePage(browser: Browser): Promise<{ context: BrowserContext; page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return { context, page, requests, errors };
}

export interface CaptureServer extends LiveServer {
  tenant: IdentityTenant;
  /** Creates a verification and answers its id, token and capture_url pointed at this server. */
  newVerification(body?: object): Promise<{ id: string; token: string; url: string }>;
  verification(id: string): Promise<{ status: string; stage: string }>;
  /** The challenge's steps with their poses (the same answer the page gets). */
  challenge(token: string): Promise<{ step: number; pose: Pose }[]>;
  /** Sends a frame for `step` past the page, as another device would. */
  uploadFrame(token: string, step: number, image: Buffer): Promise<void>;
  captureStatus(token: string): Promise<{
    next_step: { type: string; step?: number };
    uploaded_steps: number[];
    requester: { name: string; privacy_policy_url: string | null };
    return_url: string | null;
  }>;
}

export async function startCaptureServer(env: Record<string, string> = {}): Promise<CaptureServer> {
  const server = await startServer({ env: { ...HIGH_LIMITS, ...env } });
  const tenant = await identityTenant(server);
  const a = api(server);
  return Object.assign(server, {
    tenant,
    async newVerification(body?: object) {
      const v = await a.createVerification(tenant.backend, body);
      const link = new URL(v.capture_url as string);
      expect(link.hash).toBe(`#${v.handoff_token}`);
      return { id: v.id as string, token: v.handoff_token as string, url: `${server.url}${link.pathname}${link.hash}` };
    },
    async verification(id: string) {
      return (await a.call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
    },
    async challenge(token: string) {
      const res = await a.challenge(token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().steps;
    },
    async uploadFrame(token: string, step: number, image: Buffer) {
      const res = await a.upload('selfie', token, [
        { name: 'step', value: String(step) },
        { name: 'file', filename: 'frame.jpg', data: image },
      ]);
      expect(res.statusCode, res.body).toBe(201);
    },
    async captureStatus(token: string) {
      return (await a.status(token)).json();
    },
  });
}

/**
 * One capture server and one Chromium with the camera `camera` (filming `only` that pose, if
 * given) for the describe block that calls it, closed after it: the setup every capture test
 * file shares. Its fields are set once the block's tests start.
 */
export function useCapturePage(camera: 'allow' | 'deny', only?: Pose): { server: CaptureServer; browser: Browser } {
  const live = {} as { server: CaptureServer; browser: Browser };
  beforeAll(async () => {
    live.server = await startCaptureServer();
    live.browser = await launchWithCamera(camera, only);
  }, 180_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.close();
  }, 60_000);
  return live;
}

/** Waits until the page's pose check has loaded its models (or failed to). */
export async function poseCheck(page: Page, timeout = 60_000): Promise<string | null> {
  await page.locator('main[data-pose-check="ready"], main[data-pose-check="failed"]').waitFor({ timeout });
  return page.locator('main').getAttribute('data-pose-check');
}

export const screenOf = (page: Page) => page.locator('main').getAttribute('data-screen');

export async function waitForScreen(page: Page, name: string, timeout = 30_000): Promise<void> {
  await page.locator(`main[data-screen="${name}"]`).waitFor({ timeout });
}

/** "Step 2 of 2 · photo 3 of 4" → 3 (1-based), or null off the challenge. */
export async function photoNumber(page: Page): Promise<{ n: number; of: number } | null> {
  const text = await page.locator('main[data-screen="challenge"] .step').textContent({ timeout: 30_000 });
  const m = /photo (\d+) of (\d+)/.exec(text ?? '');
  return m ? { n: Number(m[1]), of: Number(m[2]) } : null;
}

/** The document screen's first question: a passport (one photo) or an ID card (front and back). */
export async function chooseDocument(page: Page, kind: 'passport' | 'id_card'): Promise<void> {
  await page.getByRole('button', { name: kind === 'passport' ? /^Passport/ : /^ID card/ }).click();
  await page.getByRole('button', { name: 'Use a different document' }).waitFor();
}

/**
 * Reads the intro (who asks, what is taken and kept) and presses "I agree": the document screen
 * follows, where `document` is chosen (null leaves the choice open).
 */
export async function passIntro(page: Page, document: 'passport' | 'id_card' | null = 'passport'): Promise<void> {
  await waitForScreen(page, 'intro');
  await page.getByRole('button', { name: 'I agree' }).click();
  await waitForScreen(page, 'document');
  if (document) await chooseDocument(page, document);
}

/** Takes the document with the camera and sends it from the preview; `shot` names screenshots. */
export async function documentWithCamera(page: Page, shot?: (name: string) => Promise<unknown>): Promise<void> {
  await page.locator('main[data-screen="intro"], main[data-screen="document"]').waitFor({ timeout: 30_000 });
  if ((await screenOf(page)) === 'intro') await passIntro(page, null);
  await shot?.('document-choice');
  await chooseDocument(page, 'passport');
  const take = page.getByRole('button', { name: 'Take photo' });
  await expect.poll(() => take.isEnabled(), { timeout: 30_000 }).toBe(true);
  await shot?.('document-camera');
  await take.click();
  await page.getByRole('img', { name: /, to check before sending$/ }).waitFor();
  await shot?.('document-preview');
  await page.getByRole('button', { name: 'Send this photo' }).click();
  await waitForScreen(page, 'challenge');
}

/**
 * Takes the current challenge step's photo with the camera and waits until the page moved on.
 * The page also takes the picture by itself once the asked pose holds (docs/identity.md, the capture page),
 * so the button is pressed only while the page has not moved on, and a press that loses that race
 * (the button disabled or gone mid-click) is not an error: the page moving on is what counts.
 */
export async function stepWithCamera(page: Page): Promise<void> {
  const before = await photoNumber(page);
  if (!before) return waitForScreen(page, 'done');
  const movedOn =
    before.n === before.of
      ? page.locator('main[data-screen="done"]')
      : page.locator('main[data-screen="challenge"] .step', { hasText: `photo ${before.n + 1} of` });
  const take = page.getByRole('button', { name: 'Take photo' });
  const ready = async () => (await movedOn.count()) > 0 || (await take.isEnabled({ timeout: 1_000 }).catch(() => false));
  await expect.poll(ready, { timeout: 30_000 }).toBe(true);
  if ((await movedOn.count()) === 0) await take.click({ timeout: 5_000 }).catch(() => undefined);
  await movedOn.waitFor({ timeout: 30_000 });
}
