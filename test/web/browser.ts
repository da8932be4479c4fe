import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestAppOptions, type TestContext } from '../helpers/app.js';
import { webAppDir } from '../../src/plugins/web-app.js';
import { CHROMIUM } from '../../scripts/fixtures/browser.js';
import { skippedOnPostgres } from '../helpers/once.js';

import { launchBrowser } from '../../scripts/fixtures/browser.js';

export { DESKTOP, launchBrowser, PHONE } from '../../scripts/fixtures/browser.js';

export const RESULTS_DIR = 'test-results';

/**
 * Whether the browser tests run. Without Debian's chromium they skip with one line, except in CI
 * (CI=true), where a missing browser is a failure. On PostgreSQL they run only when asked: what
 * they test is the page, which the embedded run already covers (test/helpers/once.ts).
 */
export function browserAvailable(): boolean {
  if (skippedOnPostgres()) return false;
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: CI installs it with apt-get (.ci/run)`);
  console.log(`browser tests skipped: ${CHROMIUM} not found (apt-get install chromium)`);
  return false;
}

export interface LiveServer extends TestContext {
  /** http://127.0.0.1:<port> of the listening server. */
  url: string;
}

/** The whole app listening on a real socket (the browser needs one), on its own database. */
export async function startServer(opts: TestAppOptions = {}): Promise<LiveServer> {
  if (!webAppDir()) throw new Error('dist/web is missing: run `npm run build:web` before the browser tests');
  const ctx = await buildTestApp(opts);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no TCP address');
  return Object.assign(ctx, { url: `http://127.0.0.1:${address.port}` });
}

/**
 * A listening server (startServer with `opts`) and chromium for the tests of one file: started
 * before them, closed after. The fields are set once the file's tests start.
 */
export function useLiveConsole(opts: TestAppOptions = {}): { server: LiveServer; browser: Browser } {
  const live = {} as { server: LiveServer; browser: Browser };
  beforeAll(async () => {
    live.server = await startServer(opts);
    live.browser = await launchBrowser();
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.close();
  });
  return live;
}

/** Saves a full-page screenshot as test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Errors the page reported (uncaught exceptions, console errors, CSP refusals), for assertions. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return errors;
}
