import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { browserAvailable, launchBrowser } from './browser.js';

const haveChromium = browserAvailable();

describe.runIf(haveChromium)('/docs in a real browser under the content security policy', () => {
  const { ctx } = useTestApp();
  let base: string;
  beforeAll(async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('renders the operations with no CSP violation', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const messages: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') messages.push(m.text());
      });
      page.on('pageerror', (err) => messages.push(err.message));
      // Runs in the page (a string: this file is compiled without the DOM types).
      await page.addInitScript({
        content:
          "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
      });
      const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
      expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await page.waitForSelector('.opblock-tag', { timeout: 90_000 });
      expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
      expect(await page.locator('.info .title').innerText()).toContain('Partner services');
      expect(messages.filter((m) => /content security policy|CSP violation|refused to/i.test(m))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
