import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { captureGzipBytes } from '../../scripts/bundle-size.js';
import { captureModelFiles } from '../../src/plugins/web-app.js';
import { startServer, type LiveServer } from './browser.js';

describe('GET /capture: the hosted capture page as served', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer();
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers text/html under a strict policy of its own: this origin only, blob: previews, the camera and nothing else', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/capture' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' blob: data:",
      "media-src 'self' blob:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    // WebAssembly for the face models may be compiled; script text may never be eval'd.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(res.headers['permissions-policy']).toBe('camera=(self), microphone=(), geolocation=()');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // Every script is an external file of this origin; no inline script or style.
    expect(res.body).toMatch(/<script[^>]*\bsrc="\/assets\//);
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc="\/assets\/)[^>]*>/);
    expect(res.body).not.toMatch(/<style|style="/);
  });

  it('a token sent by mistake in the query is neither needed nor echoed: the page is the same static file', async () => {
    const plain = await server.app.inject({ method: 'GET', url: '/capture' });
    const withQuery = await server.app.inject({ method: 'GET', url: '/capture?t=secret-token-value' });
    expect(withQuery.statusCode).toBe(200);
    expect(withQuery.body).toBe(plain.body);
  });

  it('answers in the language of Accept-Language: lang, title and no-script line from the first byte; English when it speaks none of them', async () => {
    const page = async (acceptLanguage?: string) => {
      const res = await server.app.inject({
        method: 'GET',
        url: '/capture',
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toBe('Accept-Language');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      return { language: res.headers['content-language'], body: res.body };
    };
    const dutch = await page('nl-NL,nl;q=0.9,en-US;q=0.8');
    expect(dutch.language).toBe('nl');
    expect(dutch.body).toContain('<html lang="nl" data-language="nl">');
    expect(dutch.body).toContain('<title>Uw identiteit verifiëren</title>');
    expect(dutch.body).toContain('<noscript>Deze pagina heeft JavaScript nodig om uw camera te gebruiken.</noscript>');
    const german = await page('fr-CH, de;q=0.7');
    expect(german.language).toBe('de');
    expect(german.body).toContain('<title>Identität bestätigen</title>');
    for (const other of ['fr-FR,fr;q=0.9', undefined, 'de;q=0, en']) {
      const english = await page(other);
      expect(english.language, other).toBe('en');
      expect(english.body).toContain('<html lang="en" data-language="en">');
      expect(english.body).toContain('<title>Verify your identity</title>');
    }
    // The same scripts in every language: only the words of the document differ.
    const scripts = (html: string) => html.match(/<script[^>]*>/g);
    expect(scripts(dutch.body)).toEqual(scripts(german.body));
  });

  it('keeps the capture bundle (entry, chunks and CSS) within 60 KB gzipped; the face library is a chunk of its own, loaded later', () => {
    const bytes = captureGzipBytes();
    console.log(`capture page bundle: ${(bytes / 1024).toFixed(1)} KB gzipped`);
    expect(bytes).toBeGreaterThan(5_000);
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
    const manifest = JSON.parse(readFileSync('dist/web/.vite/manifest.json', 'utf8')) as Record<string, { dynamicImports?: string[] }>;
    expect(manifest['capture/index.html']?.dynamicImports ?? Object.values(manifest).flatMap((c) => c.dynamicImports ?? [])).toEqual(
      expect.arrayContaining([expect.stringMatching(/human/)]),
    );
  });

  it('serves the pose check’s models and WASM from this server under the library’s version, cached for good; nothing else', async () => {
    const { version } = captureModelFiles();
    for (const [file, type] of [
      ['blazeface.json', 'application/json'],
      ['facemesh.bin', 'application/octet-stream'],
      ['tfjs-backend-wasm-simd.wasm', 'application/wasm'],
    ]) {
      const res = await server.app.inject({ method: 'GET', url: `/capture/models/${version}/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-type']).toContain(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.rawPayload.length).toBeGreaterThan(100);
    }
    for (const url of [
      `/capture/models/0.0.0/blazeface.json`,
      `/capture/models/${version}/emotion.json`,
      `/capture/models/${version}/..%2fpackage.json`,
      `/capture/models/${version}/%2e%2e%2f%2e%2e%2fpackage.json`,
    ]) {
      expect((await server.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
