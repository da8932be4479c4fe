import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleGzipBytes } from '../../scripts/bundle-size.js';
import { browserAvailable, collectPageErrors, DESKTOP, launchBrowser, screenshot, startServer, type LiveServer } from './browser.js';

describe('web app served by the server', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the console under /console/ with a single-page fallback and no inline script', async () => {
    for (const path of ['/console/', '/console/review/queue', '/console/operator/profiles/x']) {
      const res = await server.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="app">');
      // Every script is an external file of this origin, so `script-src 'self'` suffices.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/)[^>]*>/);
      expect(res.body).not.toMatch(/<style|style="/);
    }
    const bare = await server.app.inject({ method: 'GET', url: '/console' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/console/');
  });

  it('serves the capture page at /capture and hashed assets for good', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/capture' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    const res = await server.app.inject({ method: 'GET', url: asset! });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
    expect((await server.app.inject({ method: 'GET', url: '/assets/nope.js' })).statusCode).toBe(404);
  });

  it('keeps the console within 150 KB gzipped', () => {
    const bytes = consoleGzipBytes();
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
  });

  it('exports the typed client to partners as partner-services/client', async () => {
    const script = `import('partner-services/client').then(async (m) => {
      const api = m.createApiClient({ baseUrl: process.argv[1] });
      const { data, response } = await api.GET('/ready');
      console.log(JSON.stringify({ status: response.status, ready: data?.status ?? data }));
    })`;
    // Asynchronously: the server answering it runs in this very process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, server.url], { encoding: 'utf8' });
    expect(JSON.parse(stdout).status).toBe(200);
  });

  describe.skipIf(!browserAvailable())('in chromium', () => {
    it('renders the console without script errors', async () => {
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ viewport: DESKTOP });
        const errors = collectPageErrors(page);
        await page.goto(`${server.url}/console/`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await screenshot(page, 'console-start');
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });
});
