import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { draftEvent, eventBody, organizer, ticketType, UNKNOWN_ID } from '../helpers/ticketing.js';
import { holdKeyElsewhere, keyedCall, keyRows, newKey } from './support.js';

describe('Idempotency-Key on the Ticketing Partner API', () => {
  const { ctx, org } = useTestApp({}, { org: organizer });

  const partner = (method: 'POST' | 'PATCH', url: string, body: unknown, key?: string, token = org.key) =>
    keyedCall(ctx, { method, url: `/api/v1${url}`, token, key, body });
  const eventCount = async () => (await org.call('GET', '/events?limit=100')).json().data.total as number;

  it('creates one event for a retried POST /events and answers the retry with the first answer', async () => {
    const before = await eventCount();
    const key = newKey();
    const body = eventBody(org.venueId, { name: 'Retried Nights' });
    const first = await partner('POST', '/events', body, key);
    expect(first.statusCode).toBe(201);
    const retry = await partner('POST', '/events', body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await eventCount()).toBe(before + 1);
    // Without a key, a repeat is a new request.
    await partner('POST', '/events', body);
    expect(await eventCount()).toBe(before + 2);
  });

  it('refuses the key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const event = await draftEvent(org);
    const key = newKey();
    expect((await partner('PATCH', `/events/${event.id}`, { name: 'Late show' }, key)).statusCode).toBe(200);
    const other = await partner('PATCH', `/events/${event.id}`, { name: 'Early show' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ success: false, error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    expect((await org.call('GET', `/events/${event.id}`)).json().data.name).toBe('Late show');
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request with the key still runs', async () => {
    const key = newKey();
    const body = eventBody(org.venueId, { name: 'Busy Nights' });
    await holdKeyElsewhere(ctx, { caller: `key:${org.keyId}`, method: 'POST', path: '/api/v1/events', key }, body);
    const res = await partner('POST', '/events', body, key);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, error: { code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.any(String) } });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('refuses a malformed key with 400 VALIDATION_ERROR naming the header', async () => {
    const res = await partner('POST', '/events', eventBody(org.venueId), 'x'.repeat(256));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid',
        details: [{ path: 'headers.idempotency-key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' }],
      },
    });
  });

  it('keeps the answers given before the body is read (404, 409) and the body’s own 400', async () => {
    const published = await draftEvent(org);
    await ticketType(ctx, published.id);
    await ctx.admin('POST', `/events/${published.id}/publish`);
    for (const [url, body, status] of [
      [`/events/${UNKNOWN_ID}`, { name: 'x' }, 404],
      [`/events/${published.id}`, { name: 'x' }, 409],
      ['/events', { name: '' }, 400],
    ] as const) {
      const key = newKey();
      const method = url === '/events' ? 'POST' : 'PATCH';
      const first = await partner(method, url, body, key);
      expect(first.statusCode).toBe(status);
      const again = await partner(method, url, body, key);
      expect([again.statusCode, again.headers['idempotent-replayed'], again.body]).toEqual([status, 'true', first.body]);
    }
  });

  it('checks the key, the rate limit, the plan and the scope first, and keeps none of their answers', async () => {
    const key = newKey();
    const body = eventBody(org.venueId);
    expect((await partner('POST', '/events', body, key, 'tk_live_not-a-key')).statusCode).toBe(401);
    const readOnly = await org.keyWith(['events:read']);
    expect((await partner('POST', '/events', body, key, readOnly)).statusCode).toBe(403);
    const pro = await organizer(ctx, { plan: 'PRO' });
    expect((await partner('POST', '/events', eventBody(pro.venueId), key, pro.key)).statusCode).toBe(403);
    expect(await keyRows(ctx, key)).toEqual([]);
  });

  it('keeps each key per API key: another key of the same profile runs its own request', async () => {
    const key = newKey();
    const second = await org.keyWith(['events:read', 'events:write']);
    const body = eventBody(org.venueId, { name: 'Two keys' });
    const a = await partner('POST', '/events', body, key);
    const b = await partner('POST', '/events', body, key, second);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().data.id).not.toBe(a.json().data.id);
    expect((await keyRows(ctx, key)).map((r) => r.status)).toEqual([201, 201]);
  });
});

describe('Idempotency-Key on the operator’s order operations', () => {
  const { ctx, org } = useTestApp({}, { org: organizer });

  const operator = (url: string, body: unknown, key?: string) =>
    keyedCall(ctx, { method: 'POST', url: `/admin/v1${url}`, token: ADMIN_TOKEN, key, body });
  const sold = async (eventId: string) => (await org.call('GET', `/events/${eventId}/ticket-types`)).json().data.items[0].sold as number;

  it('sells once for a retried order, and pays and refunds once for retried payments and refunds', async () => {
    const event = await draftEvent(org);
    const type = await ticketType(ctx, event.id, { quantity: 10 });
    await ctx.admin('POST', `/events/${event.id}/publish`);
    const body = { items: [{ ticketTypeId: type.id, quantity: 3 }], buyer: { name: 'Ada', email: 'ada@example.com' }, status: 'CONFIRMED' };
    const key = newKey('order');
    const first = await operator(`/events/${event.id}/orders`, body, key);
    expect(first.statusCode).toBe(201);
    const retry = await operator(`/events/${event.id}/orders`, body, key);
    expect([retry.statusCode, retry.headers['idempotent-replayed'], retry.body]).toEqual([201, 'true', first.body]);
    expect(await sold(event.id)).toBe(3);

    const pending = await operator(`/events/${event.id}/orders`, { ...body, status: 'PENDING' });
    const orderId = pending.json().data.id as string;
    const payKey = newKey('pay');
    expect((await operator(`/orders/${orderId}/pay`, undefined, payKey)).statusCode).toBe(200);
    const payAgain = await operator(`/orders/${orderId}/pay`, undefined, payKey);
    // Without the key the second call would answer 409 ORDER_NOT_PENDING; with it, the first answer.
    expect([payAgain.statusCode, payAgain.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(await sold(event.id)).toBe(6);
    const refundKey = newKey('refund');
    await operator(`/orders/${orderId}/refund`, undefined, refundKey);
    expect((await operator(`/orders/${orderId}/refund`, undefined, refundKey)).headers['idempotent-replayed']).toBe('true');
    expect(await sold(event.id)).toBe(3);
  });

  it('leaves the other operator operations alone: a new API key is never kept', async () => {
    const key = newKey();
    const body = { service: 'ticketing', profileId: org.profileId, scopes: ['events:read'] };
    const a = await operator('/api-keys', body, key);
    const b = await operator('/api-keys', body, key);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().data.key).not.toBe(a.json().data.key);
    expect(await keyRows(ctx, key)).toEqual([]);
  });
});
