import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspDirectives } from '../../src/plugins/security-headers.js';
import { useTestApp } from '../helpers/suite.js';

function directives(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  const out = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name, sources);
  }
  return out;
}

describe('security headers on every kind of response', () => {
  const { ctx } = useTestApp();

  const kinds: [string, InjectOptions, number][] = [
    ['a JSON answer', { method: 'GET', url: '/health' }, 200],
    ['the docs page', { method: 'GET', url: '/docs/' }, 200],
    ['a docs asset', { method: 'GET', url: '/docs/static/swagger-ui-bundle.js' }, 200],
    ['the OpenAPI document', { method: 'GET', url: '/openapi.json' }, 200],
    ['a ticketing error', { method: 'GET', url: '/api/v1/events' }, 401],
    ['an identity error', { method: 'GET', url: '/v1/capture/status' }, 401],
    ['an operator error', { method: 'GET', url: '/admin/v1/profiles', headers: { authorization: 'Bearer wrong-token-0123456789' } }, 401],
    [
      'a body that is not JSON',
      {
        method: 'POST',
        url: '/admin/v1/profiles',
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' },
        payload: '{',
      },
      400,
    ],
    ['a 404 at the root', { method: 'GET', url: '/nowhere' }, 404],
    ['a 404 under /v1', { method: 'GET', url: '/v1/nowhere' }, 404],
    [
      'a 404 under /admin/v1',
      { method: 'GET', url: '/admin/v1/nowhere', headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' } },
      404,
    ],
    [
      'a body over the limit',
      {
        method: 'POST',
        url: '/admin/v1/profiles',
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      },
      413,
    ],
  ];

  for (const [name, request, status] of kinds) {
    it(`${name} (${request.method} ${request.url} → ${status})`, async () => {
      const res = await ctx.app.inject(request);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      // The rest of helmet's defaults, recorded once from helmet itself (security-headers.ts).
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-dns-prefetch-control']).toBe('off');
      expect(res.headers['x-xss-protection']).toBe('0');
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  }

  it('pages can extend the policy without losing its rules', () => {
    const extended = cspDirectives({ 'img-src': ['blob:'], 'media-src': ["'self'", 'blob:'] });
    expect(extended['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(extended['media-src']).toEqual(["'self'", 'blob:']);
    expect(extended['frame-ancestors']).toEqual(["'none'"]);
    const header = directives(contentSecurityPolicy({ 'connect-src': ["'self'"] }));
    expect(header.get('connect-src')).toEqual(["'self'"]);
    expect(header.get('script-src')).toEqual(["'self'"]);
  });
});
