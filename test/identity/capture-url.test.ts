import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { buildTestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';

describe('PUBLIC_URL configuration', () => {
  it('defaults to http://localhost:<PORT>', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
  });

  it('keeps an http(s) URL, with an optional path prefix, without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://id.example.com/' }).PUBLIC_URL).toBe('https://id.example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/identity/' }).PUBLIC_URL).toBe('https://example.com/identity');
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:3000' }).PUBLIC_URL).toBe('http://192.168.1.20:3000');
  });

  it.each([
    'id.example.com',
    'ftp://id.example.com',
    'https://id.example.com/?x=1',
    'https://id.example.com/#x',
    'https://user:pw@id.example.com',
    'not a url',
  ])('refuses %s with one line naming PUBLIC_URL', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(ConfigError);
    try {
      loadConfig({ PUBLIC_URL: value });
    } catch (err) {
      expect((err as Error).message).toMatch(/^invalid configuration: PUBLIC_URL: [^\n]+$/);
    }
  });
});

describe('capture_url: the hosted capture page link with the handoff token in its fragment', () => {
  const { ctx, tenant } = useTestApp({ env: { ...HIGH_LIMITS, PUBLIC_URL: 'https://id.example.com/' } }, { tenant: identityTenant });

  it('POST /v1/verifications answers capture_url = PUBLIC_URL/capture#<handoff_token>', async () => {
    const v = await api(ctx).createVerification(tenant.backend);
    expect(v.capture_url).toBe(`https://id.example.com/capture#${v.handoff_token}`);
    const url = new URL(v.capture_url);
    // The token is only in the fragment: nothing of it reaches the server's request line.
    expect(url.search).toBe('');
    expect(url.pathname).toBe('/capture');
  });

  it('a fresh handoff answers the new token’s capture_url; the old link stops working', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    const res = await a.call('POST', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 201);
    const h = res.json();
    expect(Object.keys(h).sort()).toEqual(['capture_url', 'handoff_expires_at', 'handoff_token', 'verification_id']);
    expect(h.capture_url).toBe(`https://id.example.com/capture#${h.handoff_token}`);
    expect(h.handoff_token).not.toBe(v.handoff_token);
    expect((await a.status(v.handoff_token)).statusCode).toBe(401);
    expect((await a.status(h.handoff_token)).statusCode).toBe(200);
  });

  it('the OpenAPI document describes capture_url on both answers', async () => {
    const doc = ctx.app.swagger() as any;
    const created = doc.paths['/v1/verifications'].post.responses['201'].content['application/json'].schema;
    const handoff = doc.paths['/v1/verifications/{id}/handoff'].post.responses['201'].content['application/json'].schema;
    for (const schema of [created, handoff]) {
      expect(schema.required).toContain('capture_url');
      expect(schema.properties.capture_url.description).toContain('/capture#<handoff_token>');
    }
  });
});

describe('capture_url with the default PUBLIC_URL', () => {
  it('points at http://localhost:<PORT>', async () => {
    const ctx = await buildTestApp({ env: { ...HIGH_LIMITS, PORT: '4123' } });
    try {
      const tenant = await identityTenant(ctx);
      const v = await api(ctx).createVerification(tenant.backend);
      expect(v.capture_url).toBe(`http://localhost:4123/capture#${v.handoff_token}`);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
