import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey, createTenant } from '../helpers/tenants.js';
import { UNKNOWN_ID, draftEvent, eventBody, order, organizer, partnerCall, ticketType } from '../helpers/ticketing.js';

type Endpoint = { method: 'GET' | 'POST' | 'PATCH'; url: () => string; scope: string; body?: () => unknown };

describe('ticketing: keys, plans, scopes, check order and the error envelope', () => {
  // Every endpoint gets wrong keys here; the brake on failed authentication has its own test (test/plugins/auth-brake.test.ts).
  const { ctx, org } = useTestApp({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' } }, { org: organizer });
  let eventId: string;
  let orderId: string;
  let endpoints: Endpoint[];
  beforeAll(async () => {
    eventId = (await draftEvent(org)).id;
    const type = await ticketType(ctx, eventId);
    orderId = (await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 1 }])).id;
    endpoints = [
      { method: 'GET', url: () => '/events', scope: 'events:read' },
      { method: 'POST', url: () => '/events', scope: 'events:write', body: () => eventBody(org.venueId) },
      { method: 'GET', url: () => `/events/${eventId}`, scope: 'events:read' },
      { method: 'PATCH', url: () => `/events/${eventId}`, scope: 'events:write', body: () => ({ name: 'Renamed' }) },
      { method: 'GET', url: () => `/events/${eventId}/ticket-types`, scope: 'events:read' },
      { method: 'GET', url: () => `/events/${eventId}/orders`, scope: 'orders:read' },
      { method: 'GET', url: () => `/orders/${orderId}`, scope: 'orders:read' },
      { method: 'GET', url: () => `/events/${eventId}/tickets`, scope: 'tickets:read' },
      { method: 'GET', url: () => `/events/${eventId}/check-ins`, scope: 'tickets:read' },
    ];
  });

  const hit = (e: Endpoint, key: string | null, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: e.method,
      url: `/api/v1${e.url()}`,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
      ...(e.body ? { payload: e.body() as object } : {}),
    });

  it('answers every endpoint with its success status for a key holding its scope', async () => {
    for (const e of endpoints) {
      const key = await org.keyWith([e.scope]);
      const res = await hit(e, key);
      expect(res.statusCode, `${e.method} ${e.url()}`).toBe(e.method === 'POST' ? 201 : 200);
      expect(res.json().success).toBe(true);
    }
  });

  it('answers 401 UNAUTHORIZED for a missing, malformed, unknown, revoked or other-service key on every endpoint', async () => {
    const { key: revoked, keyId } = await addKey(ctx, org.profileId, {
      service: 'ticketing',
      scopes: ['events:read', 'events:write', 'orders:read', 'tickets:read'],
    });
    await ctx.admin('DELETE', `/api-keys/${keyId}`);
    const identity = await createTenant(ctx, { service: 'identity', role: 'backend' });
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['not bearer', { authorization: `Basic ${org.key}` }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['two tokens', { authorization: `Bearer ${org.key} extra` }],
      ['unknown', { authorization: 'Bearer tk_live_doesnotexist' }],
      ['revoked', { authorization: `Bearer ${revoked}` }],
      ['identity key', { authorization: `Bearer ${identity.key}` }],
    ];
    for (const e of endpoints) {
      for (const [name, headers] of cases) {
        const res = await hit(e, null, headers);
        expect(res.statusCode, `${name} ${e.method} ${e.url()}`).toBe(401);
        expect(res.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }
  });

  it('answers 403 FEATURE_NOT_AVAILABLE for PRO and FREE profiles on every endpoint', async () => {
    for (const plan of ['PRO', 'FREE'] as const) {
      const small = await organizer(ctx, { plan });
      for (const e of endpoints) {
        const res = await hit(e, small.key);
        expect(res.statusCode, `${plan} ${e.method} ${e.url()}`).toBe(403);
        expect(res.json()).toEqual({ success: false, error: { code: 'FEATURE_NOT_AVAILABLE', message: expect.any(String) } });
      }
    }
  });

  it('follows a plan change and a revocation at once, even for a key just used', async () => {
    const moving = await organizer(ctx);
    expect((await moving.call('GET', '/events')).statusCode).toBe(200);
    await ctx.admin('PATCH', `/profiles/${moving.profileId}`, { plan: 'PRO' });
    expect((await moving.call('GET', '/events')).json().error.code).toBe('FEATURE_NOT_AVAILABLE');
    await ctx.admin('PATCH', `/profiles/${moving.profileId}`, { plan: 'ENTERPRISE' });
    expect((await moving.call('GET', '/events')).statusCode).toBe(200);
    await ctx.admin('DELETE', `/api-keys/${moving.keyId}`);
    expect((await moving.call('GET', '/events')).statusCode).toBe(401);
  });

  it('answers 403 INSUFFICIENT_SCOPE for a key without the endpoint’s scope, attendees:read included', async () => {
    for (const e of endpoints) {
      const others = ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'].filter((s) => s !== e.scope);
      for (const scopes of [others, ['attendees:read']]) {
        const res = await hit(e, await org.keyWith(scopes));
        expect(res.statusCode, `${e.method} ${e.url()} with ${scopes.join(',')}`).toBe(403);
        expect(res.json().error.code).toBe('INSUFFICIENT_SCOPE');
      }
    }
  });

  it('checks in the contract’s order: 401 → 403 plan → 403 scope → 404 → 409 → 400', async () => {
    // A revoked key of a FREE profile is 401, not 403.
    const free = await organizer(ctx, { plan: 'FREE', scopes: ['events:read'] });
    await ctx.admin('DELETE', `/api-keys/${free.keyId}`);
    expect((await partnerCall(ctx, free.key, 'GET', '/events')).statusCode).toBe(401);
    // The plan comes before the scope.
    const pro = await organizer(ctx, { plan: 'PRO', scopes: ['attendees:read'] });
    expect((await pro.call('GET', '/events')).json().error.code).toBe('FEATURE_NOT_AVAILABLE');
    // The scope comes before the record and the body.
    const readOnly = await org.keyWith(['events:read']);
    expect((await org.call('PATCH', `/events/${UNKNOWN_ID}`, { bogus: 1 }, readOnly)).json().error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await org.call('POST', '/events', { bogus: 1 }, readOnly)).json().error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await org.call('GET', `/events/${UNKNOWN_ID}/orders?limit=0`, undefined, readOnly)).json().error.code).toBe(
      'INSUFFICIENT_SCOPE',
    );
    // The record comes before the query and the body.
    expect((await org.call('GET', `/events/${UNKNOWN_ID}/orders?limit=0`)).statusCode).toBe(404);
    expect((await org.call('GET', `/events/${UNKNOWN_ID}/tickets?page=0`)).statusCode).toBe(404);
    expect((await org.call('PATCH', `/events/${UNKNOWN_ID}`, { name: 7, bogus: true })).statusCode).toBe(404);
    // 409 comes before 400.
    const live = await draftEvent(org);
    await ctx.admin('POST', `/events/${live.id}/publish`);
    expect((await org.call('PATCH', `/events/${live.id}`, { name: 7, bogus: true })).json().error.code).toBe('EVENT_NOT_DRAFT');
  });

  describe('error envelope under /api/v1', () => {
    it('answers unknown routes with 404 NOT_FOUND', async () => {
      for (const [method, url] of [
        ['GET', '/api/v1/nope'],
        ['DELETE', `/api/v1/events/${eventId}`],
        ['GET', '/api/v1/events/x/y/z'],
      ] as const) {
        const res = await ctx.app.inject({ method, url, headers: { authorization: `Bearer ${org.key}` } });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
      }
    });

    it('answers malformed JSON, a wrong content type and a body too large in the envelope', async () => {
      const post = (payload: string | Buffer, contentType: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/events',
          headers: { authorization: `Bearer ${org.key}`, 'content-type': contentType },
          payload,
        });
      const malformed = await post('{"name": ', 'application/json');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
      const wrongType = await post('name=x', 'application/x-www-form-urlencoded');
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const tooLarge = await post(
        JSON.stringify({ ...eventBody(org.venueId), description: 'x'.repeat(1024 * 1024 + 10) }),
        'application/json',
      );
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json()).toEqual({ success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
      const noBody = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/events/${(await draftEvent(org)).id}`,
        headers: { authorization: `Bearer ${org.key}` },
      });
      expect(noBody.statusCode).toBe(400);
      expect(noBody.json().error.code).toBe('VALIDATION_ERROR');
    });

    it('never shows internals on a 5xx', async () => {
      const broken = await buildTestApp();
      try {
        const tenant = await organizer(broken);
        await broken.app.database.close();
        const res = await partnerCall(broken, tenant.key, 'GET', '/events');
        expect(res.statusCode).toBeGreaterThanOrEqual(500);
        expect(res.json().success).toBe(false);
        expect(res.body).not.toMatch(/select|stack|pglite|postgres/i);
      } finally {
        await broken.close().catch(() => {});
      }
    });
  });
});
