import { beforeAll, describe, expect, it } from 'vitest';
import { findUnstorableText, unstorableTextReason } from '../../src/lib/storable-text.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';
import { api, file, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { ALL_SCOPES, organizer } from '../helpers/ticketing.js';

describe('findUnstorableText', () => {
  it('finds NUL and lone surrogates anywhere, keys included, and names the path', () => {
    expect(unstorableTextReason('plain text, emoji 😀')).toBeNull();
    expect(unstorableTextReason('a\u0000b')).toMatch(/NUL/);
    expect(unstorableTextReason('\ud800')).toMatch(/surrogate/);
    expect(unstorableTextReason('x\udc00')).toMatch(/surrogate/);
    expect(unstorableTextReason('\ud83d\ude00')).toBeNull();
    expect(findUnstorableText({ a: [1, { b: 'ok' }, { c: 'x\u0000' }] })).toEqual({
      path: ['a', 2, 'c'],
      message: expect.stringMatching(/NUL/),
    });
    expect(findUnstorableText({ a: { 'k\u0000': 1 } })).toEqual({ path: ['a'], message: expect.stringMatching(/property names/) });
    expect(findUnstorableText('\u0000')).toEqual({ path: [], message: expect.any(String) });
    expect(findUnstorableText({ a: [true, null, 3, 'ok'] })).toBeNull();
  });

  it('walks any depth without overflowing the stack', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(20_000);
  });
});

describe('text the database cannot store is refused by every API, naming the field', () => {
  const { ctx, org, idt } = useTestApp(
    { env: HIGH_LIMITS },
    { org: (context) => organizer(context, { scopes: ALL_SCOPES }), idt: identityTenant },
  );
  let governanceKey: string;

  beforeAll(async () => {
    governanceKey = (await createTenant(ctx, { service: 'governance', scopes: ['governance:decide', 'governance:read'] })).key;
  });

  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, key: string, raw?: string) =>
    ctx.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(raw === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(raw === undefined ? {} : { payload: raw }),
    });

  it('operator API: 400 envelope naming body.name, a nested venue field and an array item', async () => {
    const profile = await inject('POST', '/admin/v1/profiles', ADMIN_TOKEN, '{"name":"Acme\\u0000Ltd","plan":"ENTERPRISE"}');
    expect(profile.statusCode).toBe(400);
    expect(profile.json()).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid',
        details: [{ path: 'body.name', message: expect.stringMatching(/NUL character/) }],
      },
    });
    const venue = await inject(
      'POST',
      `/admin/v1/profiles/${org.profileId}/venues`,
      ADMIN_TOKEN,
      JSON.stringify({ name: 'W', address: 'A', city: 'Ham\u0000burg', lat: 1, lng: 1, timezone: 'Europe/Berlin' }),
    );
    expect(venue.statusCode).toBe(400);
    expect(venue.json().error.details).toEqual([{ path: 'body.city', message: expect.stringMatching(/NUL/) }]);
    const agent = await inject(
      'POST',
      '/admin/v1/governance/agents',
      ADMIN_TOKEN,
      JSON.stringify({
        profileId: org.profileId,
        agentId: 'a',
        mandate: ['ok', 'pay\u0000'],
        baseline: { fingerprint: 'f', maxDrift: 0.1 },
      }),
    );
    expect(agent.statusCode).toBe(400);
    expect(agent.json().error.details).toEqual([{ path: 'body.mandate.1', message: expect.stringMatching(/NUL/) }]);
  });

  it('operator API: a lone surrogate in JSON is refused the same way, not stored as U+FFFD', async () => {
    const res = await inject('POST', '/admin/v1/profiles', ADMIN_TOKEN, '{"name":"Acme \\ud800","plan":"ENTERPRISE"}');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ path: 'body.name', message: expect.stringMatching(/surrogate/) }]);
  });

  it('ticketing API: 400 envelope for body, query and path', async () => {
    const body = await inject(
      'POST',
      '/api/v1/events',
      org.key,
      JSON.stringify({
        name: 'Harbour',
        address: '1',
        lat: 1,
        lng: 1,
        categories: ['mu\u0000sic'],
        placeId: org.venueId,
        eventStartsAt: '2026-12-31T20:00:00.000Z',
      }),
    );
    expect(body.statusCode).toBe(400);
    expect(body.json().error.details).toEqual([{ path: 'body.categories.0', message: expect.stringMatching(/NUL/) }]);
    const query = await inject('GET', '/api/v1/events?status=%00', org.key);
    expect(query.statusCode).toBe(400);
    expect(query.json().error.details).toEqual([{ path: 'querystring.status', message: expect.stringMatching(/NUL/) }]);
  });

  it('identity API: 422 {detail} naming the field, in JSON and in multipart text fields', async () => {
    const res = await inject(
      'POST',
      '/v1/verifications',
      idt.backend,
      JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks', reference: 'order\u000042' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ detail: expect.stringMatching(/^body\.reference: .*NUL/) });
    const bad = await inject('GET', '/v1/verifications/%00', idt.backend);
    expect(bad.statusCode).toBeLessThan(500);
    expect(Object.keys(bad.json())).toEqual(['detail']);

    const a = api(ctx);
    const v = await a.createVerification(idt.backend);
    const doc = await a.upload('document', v.handoff_token, [{ name: 'mrz', value: 'P<NLD\u0000' }, file(png(640, 480))]);
    expect(doc.statusCode).toBe(422);
    expect(doc.json()).toEqual({ detail: expect.stringMatching(/^body\.mrz: .*NUL/) });
    const status = (await a.status(v.handoff_token)).json();
    expect(status.stage).toBe('document');
  });

  it('governance API: 400 {error:{code,message}} naming the field', async () => {
    const res = await inject(
      'POST',
      '/v1/governance/decisions',
      governanceKey,
      JSON.stringify({ agent_id: 'agent\u0000', action: 'payments.refund' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.agent_id: .*NUL/) } });
  });
});
