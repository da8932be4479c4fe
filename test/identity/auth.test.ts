import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, file, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

const onlyDetail = (res: { json(): unknown }) => expect(Object.keys(res.json() as object)).toEqual(['detail']);

describe('identity auth: API keys, roles, handoff tokens, tenants, error format', () => {
  const { ctx, tenant, other } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant, other: identityTenant });

  it('answers a missing, malformed, whitespace-carrying or unknown key with 401 {detail}', async () => {
    const body = { webhook_url: 'https://127.0.0.1/h' };
    const headers = [
      {},
      { authorization: tenant.backend },
      { authorization: `Basic ${tenant.backend}` },
      { authorization: `Bearer ${tenant.backend.slice(0, 10)} ${tenant.backend.slice(10)}` },
      { authorization: `Bearer  ${tenant.backend}` },
      { authorization: `Bearer ${tenant.backend}\t` },
      { authorization: 'Bearer idv_live_unknownkeyunknownkeyunknownkey' },
    ];
    for (const h of headers) {
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/verifications', headers: h, payload: body });
      expect(res.statusCode, JSON.stringify(h)).toBe(401);
      onlyDetail(res);
    }
    // A key of another service is not an identity key.
    const ticketing = await ctx.admin('POST', '/api-keys', { service: 'ticketing', profileId: tenant.profileId, scopes: ['events:read'] });
    expect((await api(ctx).call('GET', '/v1/review', ticketing.data.key)).statusCode).toBe(401);
  });

  it('refuses a backend key on reviewer endpoints and a reviewer key on backend endpoints with 403', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    onlyDetail(await a.call('GET', '/v1/review', tenant.backend, undefined, 403));
    await a.call('POST', `/v1/review/${v.id}`, tenant.backend, { decision: 'approve', note: 'x'.repeat(30) }, 403);
    await a.call('POST', '/v1/verifications', tenant.reviewer, { webhook_url: 'https://127.0.0.1/' }, 403);
    await a.call('GET', `/v1/verifications/${v.id}`, tenant.reviewer, undefined, 403);
    await a.call('POST', `/v1/attestations/${v.id}`, tenant.reviewer, { claim: 'identity_verified' }, 403);
    await a.call('DELETE', `/v1/verifications/${v.id}`, tenant.reviewer, undefined, 403);
  });

  it('keeps each profile to its own verifications: another tenant gets 404 everywhere', async () => {
    const a = api(ctx);
    const v = await captureAll(ctx, tenant.backend, { document: png(640, 480, { seed: 31337 }) });
    await ctx.app.jobs.drain();
    const mine = await a.createVerification(tenant.backend);
    for (const [method, url, body] of [
      ['GET', `/v1/verifications/${v.id}`],
      ['POST', `/v1/verifications/${v.id}/handoff`],
      ['DELETE', `/v1/verifications/${v.id}/handoff`],
      ['DELETE', `/v1/verifications/${v.id}`],
      ['POST', `/v1/attestations/${v.id}`, { claim: 'identity_verified' }],
    ] as const) {
      const res = await a.call(method, url, other.backend, body);
      expect(res.statusCode, url).toBe(404);
      onlyDetail(res);
    }
    await a.call('POST', `/v1/review/${v.id}`, other.reviewer, { decision: 'approve', note: 'a careful reviewer note' }, 404);
    // Still intact for its owner.
    expect((await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().status).toBe('approved');
    expect((await a.call('GET', `/v1/verifications/${mine.id}`, tenant.backend, undefined, 200)).json().erased).toBe(false);
  });

  it('answers unknown and non-UUID ids with 404 {detail}', async () => {
    const a = api(ctx);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' or '1'='1"]) {
      onlyDetail(await a.call('GET', `/v1/verifications/${encodeURIComponent(id)}`, tenant.backend, undefined, 404));
      await a.call(
        'POST',
        `/v1/review/${encodeURIComponent(id)}`,
        tenant.reviewer,
        { decision: 'approve', note: 'a careful reviewer note' },
        404,
      );
      await a.call('POST', `/v1/attestations/${encodeURIComponent(id)}`, tenant.backend, { claim: 'identity_verified' }, 404);
    }
  });

  it('answers unknown routes under /v1 with 404 {detail}, leaving other APIs their own format', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: expect.any(String) });
    onlyDetail(await ctx.app.inject({ method: 'PUT', url: '/v1/verifications' }));
    const admin = await ctx.app.inject({ method: 'GET', url: '/admin/v1/nothing', headers: { authorization: 'Bearer x' } });
    expect(admin.json()).not.toHaveProperty('detail');
    // Governance shares /v1 but keeps its own not-found answer and needs no identity key.
    const governance = await ctx.app.inject({ method: 'GET', url: '/v1/governance/nothing-here' });
    expect(governance.statusCode).toBe(404);
    expect(governance.json()).not.toHaveProperty('detail');
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/proof/boundaries' })).statusCode).toBe(200);
  });

  it('answers a malformed JSON body with {detail} only', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/verifications',
      headers: { authorization: `Bearer ${tenant.backend}`, 'content-type': 'application/json' },
      payload: '{"webhook_url":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    onlyDetail(res);
  });

  it('answers a server fault with 500 {detail} and an unreachable database with 503 {detail}, never a message or stack', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    const put = ctx.app.blobs.put;
    ctx.app.blobs.put = async () => {
      throw new Error('disk on fire at /var/secret/blobs');
    };
    try {
      const res = await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 5 }))]);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal server error' });
    } finally {
      ctx.app.blobs.put = put;
    }
    const db = ctx.app.db as unknown as { transaction: unknown };
    const transaction = db.transaction;
    db.transaction = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    };
    try {
      const res = await a.call('POST', '/v1/verifications', tenant.backend, { webhook_url: 'https://127.0.0.1/h' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: expect.any(String) });
      expect(res.body).not.toContain('ECONNREFUSED');
    } finally {
      db.transaction = transaction;
    }
    expect((await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 6 }))])).statusCode).toBe(201);
  });

  describe('handoff tokens', () => {
    it('expires after 30 minutes on every capture endpoint (ManualClock)', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      ctx.clock.advance(30 * 60 * 1000 - 1);
      expect((await a.status(v.handoff_token)).statusCode).toBe(200);
      ctx.clock.advance(1);
      for (const res of [
        await a.status(v.handoff_token),
        await a.challenge(v.handoff_token),
        await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 1 }))]),
        await a.upload('selfie', v.handoff_token, [{ name: 'step', value: '0' }, file(png(640, 480, { seed: 2 }))]),
      ]) {
        expect(res.statusCode).toBe(401);
        onlyDetail(res);
      }
    });

    it('answers 401 to a missing, altered or URL-mangled token', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const t: string = v.handoff_token;
      const flipped = (t[0] === 'A' ? 'B' : 'A') + t.slice(1);
      for (const token of [
        null,
        flipped,
        `${t}=`,
        t.slice(0, 42),
        t.replace(/-/g, '+').replace(/_/g, '/') + (t.includes('-') || t.includes('_') ? '' : '%'),
        encodeURIComponent(`${t} `),
      ]) {
        expect((await a.call('GET', '/v1/capture/status', token)).statusCode).toBe(401);
      }
      expect((await a.status(t)).statusCode).toBe(200);
    });

    it('revokes with DELETE /handoff; a reissued token replaces the old one', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const reissued = (await a.call('POST', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 201)).json();
      expect(reissued.handoff_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await a.status(v.handoff_token)).statusCode).toBe(401);
      expect((await a.status(reissued.handoff_token)).statusCode).toBe(200);
      expect((await a.call('DELETE', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 200)).json()).toEqual({
        verification_id: v.id,
        handoff_revoked: true,
      });
      const res = await a.upload('document', reissued.handoff_token, [file(png(640, 480, { seed: 3 }))]);
      expect(res.statusCode).toBe(401);
      onlyDetail(res);
    });

    it('stores only a hash of the token', async () => {
      const a = api(ctx);
      const v = await a.createVerification(tenant.backend);
      const { rows } = (await ctx.app.db.execute(
        sql`select token_hash from identity_handoff_tokens where verification_id = ${v.id}`,
      )) as unknown as { rows: { token_hash: string }[] };
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).not.toContain(v.handoff_token);
      expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  it('never lets a decided verification be captured again', async () => {
    const v = await captureAll(ctx, tenant.backend);
    expect((await settle(ctx, tenant.backend, v.id)).status).toBe('approved');
    await api(ctx).call('POST', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 409);
  });
});

describe('identity rate limits per client IP', () => {
  const { ctx, tenant } = useTestApp(
    { env: { CAPTURE_RATE_LIMIT_PER_MINUTE: '3', IDENTITY_RATE_LIMIT_PER_MINUTE: '5' } },
    { tenant: identityTenant },
  );

  it('limits capture and API endpoints separately, answering 429 {detail} with Retry-After', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    for (let i = 0; i < 3; i++) expect((await a.status(v.handoff_token)).statusCode).toBe(200);
    const limited = await a.status(v.handoff_token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client IP has its own budget.
    const elsewhere = await ctx.app.inject({
      method: 'GET',
      url: '/v1/capture/status',
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${v.handoff_token}` },
    });
    expect(elsewhere.statusCode).toBe(200);
    // The API budget is separate: 1 used by the create above, 4 more fit.
    for (let i = 0; i < 4; i++) expect((await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend)).statusCode).toBe(200);
    const apiLimited = await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend);
    expect(apiLimited.statusCode).toBe(429);
    expect(Object.keys(apiLimited.json())).toEqual(['detail']);
    expect(apiLimited.headers['retry-after']).toBeDefined();
  });
});

describe('identity rate limits before authentication, shared through Redis', () => {
  const env = { CAPTURE_RATE_LIMIT_PER_MINUTE: '3', IDENTITY_RATE_LIMIT_PER_MINUTE: '4', REDIS_URL: 'redis://127.0.0.1:6379' };
  const { ctx: one } = useTestApp({ env });
  const { ctx: two } = useTestApp({ env });

  // A fresh address per run: counters in Redis outlive the test.
  const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  const guess = (ctx: TestContext, url = '/v1/capture/status') =>
    ctx.app.inject({
      method: 'GET',
      url,
      remoteAddress: ip,
      headers: { authorization: 'Bearer guessed-token-guessed-token-guessed-token00' },
    });

  it('counts guessed tokens and keys too, across instances, with separate capture and API budgets', async () => {
    expect((await guess(one)).statusCode).toBe(401);
    expect((await guess(two)).statusCode).toBe(401);
    expect((await guess(one)).statusCode).toBe(401);
    const limited = await guess(two);
    expect(limited.statusCode).toBe(429);
    expect(Object.keys(limited.json())).toEqual(['detail']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The API budget (4) is its own namespace.
    const apiUrl = '/v1/verifications/00000000-0000-4000-8000-000000000000';
    for (const ctx of [one, two, one, two]) expect((await guess(ctx, apiUrl)).statusCode).toBe(401);
    expect((await guess(one, apiUrl)).statusCode).toBe(429);
    // Governance routes under /v1 are not counted by identity's limiter.
    expect((await guess(one, '/v1/proof/boundaries')).statusCode).not.toBe(429);
  });
});
