import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthBrake } from '../../src/plugins/auth-brake.js';
import { ManualClock } from '../../src/lib/clock.js';
import { buildTestApp, ADMIN_TOKEN, type TestContext } from '../helpers/app.js';
import { createTenant } from '../helpers/tenants.js';

/** One request on the app's real socket (fetch keeps the connection alive between calls). */
async function send(base: string, path: string, token: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** A route of each API that needs a credential, and the wrong one. */
const API_CALLS = [
  { api: 'ticketing', path: '/api/v1/events', bad: 'tk_live_wrong' },
  { api: 'identity', path: '/v1/review', bad: 'idv_live_wrong' },
  { api: 'governance', path: '/v1/governance/records', bad: 'gov_live_wrong' },
  { api: 'operator', path: '/admin/v1/profiles', bad: 'not-the-operator-token' },
] as const;

/** Each API's own 429 body. */
function expectOwnFormat(api: (typeof API_CALLS)[number]['api'], body: Record<string, unknown>) {
  if (api === 'identity') expect(Object.keys(body)).toEqual(['detail']);
  else if (api === 'governance') expect(body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
  else expect(body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
}

describe('a brake on failed authentication per client IP, before the key lookup, on a real socket', () => {
  let ctx: TestContext;
  let base: string;
  let goodKey: string;
  beforeAll(async () => {
    ctx = await buildTestApp();
    goodKey = (await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] })).key;
    base = await listen(ctx);
  });
  afterAll(() => ctx?.close());

  it('answers 429 with Retry-After on every API, in its own format, after 30 failures across them; the window ends after a minute', async () => {
    // 30 failures spread over the four APIs: each is still a 401.
    for (let i = 0; i < 30; i++) {
      const call = API_CALLS[i % API_CALLS.length]!;
      const res = await send(base, call.path, i % 5 === 0 ? null : call.bad);
      expect(res.status, `${call.api} #${i}`).toBe(401);
    }
    for (const call of API_CALLS) {
      const res = await send(base, call.path, call.bad);
      expect(res.status, call.api).toBe(429);
      expect(Number(res.retryAfter)).toBeGreaterThan(0);
      expect(Number(res.retryAfter)).toBeLessThanOrEqual(60);
      expectOwnFormat(call.api, res.body);
    }
    // Braked before the lookup: even a good key is not looked at until the window ends.
    expect((await send(base, '/api/v1/events', goodKey)).status).toBe(429);
    expect((await send(base, '/admin/v1/profiles', ADMIN_TOKEN)).status).toBe(429);
    // Routes that need no credential are not braked.
    expect((await send(base, '/v1/attestations/claims', null)).status).toBe(200);

    ctx.clock.advance(60_000);
    expect((await send(base, '/api/v1/events', 'tk_live_wrong')).status).toBe(401);
    expect((await send(base, '/api/v1/events', goodKey)).status).toBe(200);
  });
});

describe('the operator API’s own limit per client IP, before the token, on a real socket', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await buildTestApp({ env: { ADMIN_RATE_LIMIT_PER_MINUTE: '5' } });
    base = await listen(ctx);
  });
  afterAll(() => ctx?.close());

  it('answers 429 RATE_LIMITED with Retry-After past ADMIN_RATE_LIMIT_PER_MINUTE, with or without the token', async () => {
    for (let i = 0; i < 5; i++) expect((await send(base, '/admin/v1/profiles', ADMIN_TOKEN)).status).toBe(200);
    for (const token of [ADMIN_TOKEN, 'wrong-token', null]) {
      const res = await send(base, '/admin/v1/profiles', token);
      expect(res.status).toBe(429);
      expect(Number(res.retryAfter)).toBeGreaterThan(0);
      expectOwnFormat('operator', res.body);
    }
  });
});

describe.runIf(process.env.REDIS_URL)('one brake across instances through Redis', () => {
  const env = { REDIS_URL: process.env.REDIS_URL!, TRUST_PROXY_HOPS: '1' };
  let first: TestContext;
  let second: TestContext;
  let bases: [string, string];
  beforeAll(async () => {
    first = await buildTestApp({ env });
    // The brake lives in Redis alone: the two instances need not share a database (so this runs on PGlite too).
    second = await buildTestApp({ env });
    bases = [await listen(first), await listen(second)];
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts the failures of one address on both instances together', async () => {
    // Fresh addresses per run: counters in Redis outlive the test.
    const address = () => `2001:db8::${randomBytes(6).toString('hex').match(/.{4}/g)!.join(':')}`;
    const viaProxy = { 'x-forwarded-for': address() };
    for (let i = 0; i < 30; i++) {
      const res = await send(bases[i % 2]!, '/api/v1/events', 'tk_live_wrong', viaProxy);
      expect(res.status).toBe(401);
    }
    for (const base of bases) {
      const res = await send(base, '/v1/review', 'idv_live_wrong', viaProxy);
      expect(res.status).toBe(429);
      expect(Number(res.retryAfter)).toBeGreaterThan(0);
    }
    // Another address is not braked.
    expect((await send(bases[0], '/api/v1/events', 'tk_live_wrong', { 'x-forwarded-for': address() })).status).toBe(401);
  });
});

describe('the in-process brake when its table of addresses fills', () => {
  const ADDRESSES = 100_000; // what the in-process store holds (src/plugins/auth-brake.ts)
  const log = { warn: () => {} };
  const v6 = (n: number) => `2001:db8:${(n >>> 16).toString(16)}::${(n & 0xffff).toString(16)}`;

  it('keeps braking an address when an attacker floods it with failures from many other addresses', async () => {
    const clock = new ManualClock();
    const brake = createAuthBrake({ limit: 30, clock, log });
    const attacker = '203.0.113.66';
    for (let i = 0; i < 30; i++) await brake.failed(attacker);
    expect(await brake.secondsBraked(attacker)).toBe(60);
    // One failure from each of more addresses than the table holds, all within the window.
    for (let n = 0; n < ADDRESSES + 10; n++) await brake.failed(v6(n));
    clock.advance(1_000);
    expect(await brake.secondsBraked(attacker)).toBe(59);
  });

  it('forgets only the oldest counts, not every one', async () => {
    const clock = new ManualClock();
    const brake = createAuthBrake({ limit: 3, clock, log });
    for (let n = 0; n < ADDRESSES + 10; n++) await brake.failed(v6(n));
    // Every address but the oldest few kept its count: two more failures brake it.
    const recent = v6(ADDRESSES / 2);
    for (let i = 0; i < 2; i++) await brake.failed(recent);
    expect(await brake.secondsBraked(recent)).toBe(60);
    // The oldest was evicted to make room: it starts again from nothing.
    const oldest = v6(0);
    for (let i = 0; i < 2; i++) await brake.failed(oldest);
    expect(await brake.secondsBraked(oldest)).toBe(0);
    // And the window still ends on time.
    clock.advance(60_000);
    expect(await brake.secondsBraked(recent)).toBe(0);
  });
});
