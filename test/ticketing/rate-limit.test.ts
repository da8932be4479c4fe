import { apiKeys, profiles } from '../../src/db/schema/core.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, usingPostgres, type TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { ALL_SCOPES, draftEvent, eventBody, order, organizer, partnerCall, ticketType } from '../helpers/ticketing.js';

const LIMIT = 4;

describe('ticketing: rate limit per key', () => {
  const { ctx } = useTestApp({ env: { TICKETING_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });

  it('counts every keyed answer in the headers and answers 429 RATE_LIMITED with Retry-After past the limit', async () => {
    const org = await organizer(ctx);
    for (let i = 1; i <= LIMIT; i++) {
      const res = await org.call('GET', '/events');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - i));
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(res.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    }
    const limited = await org.call('GET', '/events');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    // Every endpoint shares the one budget of the key.
    expect((await org.call('GET', '/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(429);
  });

  it('answers 429 on each of the nine endpoints once the key’s budget is spent', async () => {
    const org = await organizer(ctx);
    const eventId = (await draftEvent(org)).id;
    const type = await ticketType(ctx, eventId);
    const orderId = (await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 1 }])).id;
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/events'],
      ['POST', '/events', eventBody(org.venueId)],
      ['GET', `/events/${eventId}`],
      ['PATCH', `/events/${eventId}`, { name: 'x' }],
      ['GET', `/events/${eventId}/ticket-types`],
      ['GET', `/events/${eventId}/orders`],
      ['GET', `/orders/${orderId}`],
      ['GET', `/events/${eventId}/tickets`],
      ['GET', `/events/${eventId}/check-ins`],
    ];
    for (const [method, url, body] of endpoints) {
      const key = await org.keyWith(ALL_SCOPES);
      for (let i = 0; i < LIMIT; i++) expect((await org.call(method as 'GET', url, body, key)).statusCode).toBeLessThan(300);
      const res = await org.call(method as 'GET', url, body, key);
      expect(res.statusCode, `${method} ${url}`).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
      expect(res.headers['retry-after']).toBeDefined();
    }
  });

  it('keys the limit on the API key: another key of the same profile has its own budget; 401s are not counted', async () => {
    const org = await organizer(ctx);
    for (let i = 0; i < LIMIT + 1; i++) await org.call('GET', '/events');
    expect((await org.call('GET', '/events')).statusCode).toBe(429);
    const second = await org.keyWith(['events:read']);
    const res = await org.call('GET', '/events', undefined, second);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    for (let i = 0; i < LIMIT + 2; i++) expect((await partnerCall(ctx, 'tk_live_unknown', 'GET', '/events')).statusCode).toBe(401);
  });

  it('answers 429 before 403 and 404, and 403s and 404s carry the headers too', async () => {
    const free = await organizer(ctx, { plan: 'FREE' });
    const forbidden = await free.call('GET', '/events');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    const org = await organizer(ctx, { scopes: ['events:read'] });
    const missing = await org.call('GET', '/events/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    const unknownRoute = await org.call('DELETE', '/events');
    expect(unknownRoute.statusCode).toBe(404);
    expect(unknownRoute.json().error.code).toBe('NOT_FOUND');
    expect(unknownRoute.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 2));
    for (let i = 0; i < LIMIT; i++) await free.call('GET', '/events');
    expect((await free.call('GET', '/events')).json().error.code).toBe('RATE_LIMITED');
    for (let i = 0; i < LIMIT - 2; i++) await org.call('GET', '/orders/00000000-0000-4000-8000-000000000000');
    expect((await org.call('GET', '/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(429);
  });
});

describe.runIf(process.env.REDIS_URL)('ticketing: one rate limit across instances through Redis', () => {
  const env = { TICKETING_RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: process.env.REDIS_URL! };
  const { ctx: first, org } = useTestApp({ env }, { org: organizer });
  let second: TestContext;
  beforeAll(async () => {
    if (usingPostgres()) {
      second = await buildTestApp({ env, shareWith: first });
    } else {
      // In-memory PGlite cannot be shared: give the second instance the same profile and key rows.
      second = await buildTestApp({ env });
      const [profile] = await first.app.db.select().from(profiles).where(eq(profiles.id, org.profileId));
      const [key] = await first.app.db.select().from(apiKeys).where(eq(apiKeys.id, org.keyId));
      await second.app.db.insert(profiles).values(profile!);
      await second.app.db.insert(apiKeys).values(key!);
    }
  });
  afterAll(async () => {
    await second?.close();
  });

  it('counts requests to both instances against the one limit of the key', async () => {
    // Fresh random keys make the counters of this run unique in a shared Redis.
    const answers = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await partnerCall(i % 2 ? second : first, org.key, 'GET', '/events'));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(LIMIT).fill(200));
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(Array.from({ length: LIMIT }, (_, i) => String(LIMIT - 1 - i)));
    const onFirst = await partnerCall(first, org.key, 'GET', '/events');
    const onSecond = await partnerCall(second, org.key, 'GET', '/events');
    expect([onFirst.statusCode, onSecond.statusCode]).toEqual([429, 429]);
    expect(onSecond.json().error.code).toBe('RATE_LIMITED');
    expect(Number(onSecond.headers['retry-after'])).toBeGreaterThan(0);
  });
});
