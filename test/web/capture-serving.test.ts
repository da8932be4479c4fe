import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureGzipBytes } from '../../scripts/bundle-size.js';
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

  it('keeps the capture bundle (entry, chunks and CSS) within 60 KB gzipped', () => {
    const bytes = captureGzipBytes();
    console.log(`capture page bundle: ${(bytes / 1024).toFixed(1)} KB gzipped`);
    expect(bytes).toBeGreaterThan(5_000);
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
  });
});
