import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { UNKNOWN_ID, draftEvent, order, organizer, ticketType, webhookWatch } from '../helpers/ticketing.js';

describe('operator API: ticketing', () => {
  const { ctx, org } = useTestApp({}, { org: organizer });

  const raw = (method: 'POST', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const stock = async (eventId: string) =>
    Object.fromEntries(
      (await org.call('GET', `/events/${eventId}/ticket-types`)).json().data.items.map((t: { id: string; sold: number }) => [t.id, t.sold]),
    );

  describe('ticket types', () => {
    it('creates ticket types and validates them', async () => {
      const event = await draftEvent(org);
      const res = await raw('POST', `/events/${event.id}/ticket-types`, {
        name: 'Early bird',
        kind: 'STANDARD',
        price: '9.9',
        quantity: 10,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        name: 'Early bird',
        price: '9.90',
        quantity: 10,
        sold: 0,
        isActive: true,
        partySize: null,
        description: null,
      });
      for (const bad of [
        { name: 'x', kind: 'STANDARD', price: 25, quantity: 1 },
        { name: 'x', kind: 'STANDARD', price: '25.001', quantity: 1 },
        { name: 'x', kind: 'STANDARD', price: '-1.00', quantity: 1 },
        { name: 'x', kind: 'STANDARD', price: '1.00', quantity: -1 },
        { name: 'x', kind: 'STANDARD', price: '1.00', quantity: 1, partySize: 4 },
        { name: 'x', kind: 'BOOTH', price: '1.00', quantity: 1 },
        { name: 'x', kind: 'STANDARD', price: '1.00', quantity: 1, extra: true },
      ]) {
        const answer = await raw('POST', `/events/${event.id}/ticket-types`, bad);
        expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
        expect(answer.json().error.code).toBe('VALIDATION_ERROR');
      }
      expect((await raw('POST', `/events/${UNKNOWN_ID}/ticket-types`, { bogus: 1 })).statusCode).toBe(404);
      expect((await raw('POST', '/events/zzz/ticket-types', {})).statusCode).toBe(404);
    });
  });

  describe('event status', () => {
    it('publishes a draft once, with one event.published webhook carrying the Event', async () => {
      const event = await draftEvent(org);
      const fresh = await webhookWatch(ctx, org.profileId);
      const res = await raw('POST', `/events/${event.id}/publish`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: event.id, status: 'ACTIVE' });
      const again = await raw('POST', `/events/${event.id}/publish`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('EVENT_NOT_DRAFT');
      const rows = await fresh();
      expect(rows.map((r) => r.type)).toEqual(['event.published']);
      expect(rows[0]!.body).toEqual({
        id: expect.any(String),
        type: 'event.published',
        created: expect.any(String),
        data: res.json().data,
      });
      // A JSON content type with an empty body is still a body-less action.
      const other = await draftEvent(org);
      const emptyJson = await ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/events/${other.id}/publish`,
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef', 'content-type': 'application/json' },
      });
      expect(emptyJson.statusCode).toBe(200);
    });

    it('cancels with one event.canceled webhook and refuses to cancel twice', async () => {
      const event = await draftEvent(org);
      await raw('POST', `/events/${event.id}/publish`);
      const fresh = await webhookWatch(ctx, org.profileId);
      const res = await raw('POST', `/events/${event.id}/cancel`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('CANCELLED');
      const again = await raw('POST', `/events/${event.id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('INVALID_STATUS_TRANSITION');
      const rows = await fresh();
      expect(rows.map((r) => r.type)).toEqual(['event.canceled']);
      expect(rows[0]!.body.data).toEqual(res.json().data);
    });

    it('moves between ACTIVE, INACTIVE and ARCHIVED, refusing the rest with 409', async () => {
      const event = await draftEvent(org);
      const move = (status: string) => raw('POST', `/events/${event.id}/status`, { status });
      const fresh = await webhookWatch(ctx, org.profileId);
      expect((await move('ACTIVE')).json().data.status).toBe('ACTIVE');
      expect((await fresh()).map((r) => r.type)).toEqual(['event.published']);
      expect((await move('ACTIVE')).statusCode).toBe(409);
      expect((await move('INACTIVE')).json().data.status).toBe('INACTIVE');
      expect((await move('ACTIVE')).json().data.status).toBe('ACTIVE');
      expect((await move('ARCHIVED')).json().data.status).toBe('ARCHIVED');
      for (const status of ['ACTIVE', 'INACTIVE', 'ARCHIVED']) {
        const res = await move(status);
        expect(res.statusCode).toBe(409);
        expect(res.json().error.code).toBe('INVALID_STATUS_TRANSITION');
      }
      expect((await raw('POST', `/events/${event.id}/cancel`)).statusCode).toBe(409);
      expect((await move('DRAFT')).statusCode).toBe(400);
      expect((await raw('POST', `/events/${UNKNOWN_ID}/status`, { status: 'NOPE' })).statusCode).toBe(404);
      expect((await raw('POST', `/events/${UNKNOWN_ID}/publish`)).statusCode).toBe(404);
      expect((await raw('POST', `/events/${UNKNOWN_ID}/cancel`)).statusCode).toBe(404);
    });
  });

  describe('orders and stock', () => {
    let eventId: string;
    beforeAll(async () => {
      eventId = (await draftEvent(org)).id;
      await raw('POST', `/events/${eventId}/publish`);
    });

    it('creates a PENDING order without taking stock; paying takes it, issues tickets and publishes order.paid', async () => {
      const type = await ticketType(ctx, eventId, { quantity: 5, price: '12.50' });
      const fresh = await webhookWatch(ctx, org.profileId);
      const created = await raw('POST', `/events/${eventId}/orders`, {
        items: [{ ticketTypeId: type.id, quantity: 3 }],
        buyer: { name: 'Ada', email: 'ada@example.com' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({
        status: 'PENDING',
        totalAmount: '37.50',
        currency: 'USD',
        buyer: { name: 'Ada', email: 'ada@example.com' },
      });
      expect((await stock(eventId))[type.id]).toBe(0);
      expect(await fresh()).toEqual([]);
      const paid = await raw('POST', `/orders/${created.json().data.id}/pay`);
      expect(paid.statusCode).toBe(200);
      expect(paid.json().data.status).toBe('CONFIRMED');
      expect((await stock(eventId))[type.id]).toBe(3);
      const rows = await fresh();
      expect(rows.map((r) => r.type)).toEqual(['order.paid']);
      expect(rows[0]!.body.data).toEqual(paid.json().data);
      expect(rows[0]!.body.data).toEqual((await org.call('GET', `/orders/${paid.json().data.id}`)).json().data);
      const tickets = (await org.call('GET', `/events/${eventId}/tickets?limit=100`))
        .json()
        .data.items.filter((t: { orderId: string }) => t.orderId === paid.json().data.id);
      expect(tickets).toHaveLength(3);
      const again = await raw('POST', `/orders/${paid.json().data.id}/pay`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('ORDER_NOT_PENDING');
    });

    it('refunds a confirmed order once: tickets void, stock back, one order.refunded', async () => {
      const type = await ticketType(ctx, eventId, { quantity: 5 });
      const confirmed = await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 2 }]);
      expect((await stock(eventId))[type.id]).toBe(2);
      const fresh = await webhookWatch(ctx, org.profileId);
      const refunded = await raw('POST', `/orders/${confirmed.id}/refund`);
      expect(refunded.statusCode).toBe(200);
      expect(refunded.json().data.status).toBe('REFUNDED');
      expect((await stock(eventId))[type.id]).toBe(0);
      const rows = await fresh();
      expect(rows.map((r) => r.type)).toEqual(['order.refunded']);
      expect(rows[0]!.body.data).toEqual({ ...refunded.json().data, buyer: { name: 'Ada Lovelace', email: 'ada@example.com' } });
      const listed = (await org.call('GET', `/events/${eventId}/tickets?limit=100`)).json().data.items;
      expect(listed.some((t: { orderId: string }) => t.orderId === confirmed.id)).toBe(false);
      const again = await raw('POST', `/orders/${confirmed.id}/refund`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('ORDER_NOT_CONFIRMED');
      expect((await raw('POST', `/orders/${confirmed.id}/pay`)).json().error.code).toBe('ORDER_NOT_PENDING');
      const pending = await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 1 }], 'PENDING');
      expect((await raw('POST', `/orders/${pending.id}/refund`)).statusCode).toBe(409);
      expect((await raw('POST', `/orders/${UNKNOWN_ID}/refund`)).statusCode).toBe(404);
      expect((await raw('POST', '/orders/x/pay')).statusCode).toBe(404);
    });

    it('refuses overselling with 409 SOLD_OUT and writes nothing, at creation and at payment', async () => {
      const type = await ticketType(ctx, eventId, { quantity: 3 });
      const fresh = await webhookWatch(ctx, org.profileId);
      const ordersBefore = (await org.call('GET', `/events/${eventId}/orders`)).json().data.total;
      const tooMany = await raw('POST', `/events/${eventId}/orders`, {
        items: [{ ticketTypeId: type.id, quantity: 4 }],
        buyer: { name: 'A', email: 'a@example.com' },
        status: 'CONFIRMED',
      });
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json().error.code).toBe('SOLD_OUT');
      const split = await raw('POST', `/events/${eventId}/orders`, {
        items: [
          { ticketTypeId: type.id, quantity: 2 },
          { ticketTypeId: type.id, quantity: 2 },
        ],
        buyer: { name: 'A', email: 'a@example.com' },
        status: 'CONFIRMED',
      });
      expect(split.json().error.code).toBe('SOLD_OUT');
      expect(
        (
          await raw('POST', `/events/${eventId}/orders`, {
            items: [{ ticketTypeId: type.id, quantity: 4 }],
            buyer: { name: 'A', email: 'a@example.com' },
          })
        ).json().error.code,
      ).toBe('SOLD_OUT');
      const pending = await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 2 }], 'PENDING');
      await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 2 }]);
      const pay = await raw('POST', `/orders/${pending.id}/pay`);
      expect(pay.statusCode).toBe(409);
      expect(pay.json().error.code).toBe('SOLD_OUT');
      expect((await org.call('GET', `/orders/${pending.id}`)).json().data.status).toBe('PENDING');
      expect((await stock(eventId))[type.id]).toBe(2);
      expect((await org.call('GET', `/events/${eventId}/orders`)).json().data.total).toBe(ordersBefore + 2);
      // Only the one successful CONFIRMED order published anything.
      expect((await fresh()).map((r) => r.type)).toEqual(['order.paid']);
    });

    it('refuses unknown, inactive and ended ticket types, other events’ ticket types and closed events', async () => {
      const inactive = await ticketType(ctx, eventId, { isActive: false });
      const ended = await ticketType(ctx, eventId, { salesEndAt: '2020-01-01T00:00:00Z' });
      const elsewhere = await ticketType(ctx, (await draftEvent(org)).id);
      const buy = (ticketTypeId: string, id = eventId) =>
        raw('POST', `/events/${id}/orders`, { items: [{ ticketTypeId, quantity: 1 }], buyer: { name: 'A', email: 'a@example.com' } });
      expect((await buy(UNKNOWN_ID)).statusCode).toBe(404);
      expect((await buy(elsewhere.id)).statusCode).toBe(404);
      expect((await buy(inactive.id)).json().error.code).toBe('TICKET_TYPE_INACTIVE');
      expect((await buy(ended.id)).json().error.code).toBe('SALES_ENDED');
      const closed = (await draftEvent(org)).id;
      const type = await ticketType(ctx, closed);
      await raw('POST', `/events/${closed}/cancel`);
      expect((await buy(type.id, closed)).json().error.code).toBe('EVENT_NOT_ON_SALE');
      for (const bad of [
        { items: [], buyer: { name: 'A', email: 'a@example.com' } },
        { items: [{ ticketTypeId: type.id, quantity: 0 }], buyer: { name: 'A', email: 'a@example.com' } },
        { items: [{ ticketTypeId: type.id, quantity: 1 }], buyer: { name: 'A', email: 'nope' } },
        { items: [{ ticketTypeId: type.id, quantity: 1 }], buyer: { name: 'A', email: 'a@example.com' }, status: 'REFUNDED' },
      ]) {
        expect((await raw('POST', `/events/${eventId}/orders`, bad)).statusCode, JSON.stringify(bad)).toBe(400);
      }
      expect((await raw('POST', `/events/${UNKNOWN_ID}/orders`, { bogus: 1 })).statusCode).toBe(404);
    });

    it('never oversells when many orders race for the last tickets', async () => {
      const type = await ticketType(ctx, eventId, { quantity: 5 });
      const fresh = await webhookWatch(ctx, org.profileId);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          raw('POST', `/events/${eventId}/orders`, {
            items: [{ ticketTypeId: type.id, quantity: 1 }],
            buyer: { name: `B${i}`, email: `b${i}@example.com` },
            status: 'CONFIRMED',
          }),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes.filter((c) => c === 201)).toHaveLength(5);
      expect(codes.filter((c) => c === 409)).toHaveLength(7);
      expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json().error.code === 'SOLD_OUT')).toBe(true);
      expect((await stock(eventId))[type.id]).toBe(5);
      expect(await fresh()).toHaveLength(5);
    });

    it('never oversells when pending orders are paid in parallel', async () => {
      const type = await ticketType(ctx, eventId, { quantity: 3 });
      const pending = [];
      for (let i = 0; i < 3; i++) pending.push(await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 2 }], 'PENDING'));
      const paid = await Promise.all(pending.map((p) => raw('POST', `/orders/${p.id}/pay`)));
      expect(paid.map((p) => p.statusCode).sort()).toEqual([200, 409, 409]);
      expect((await stock(eventId))[type.id]).toBe(2);
      const twice = await order(ctx, eventId, [{ ticketTypeId: type.id, quantity: 1 }], 'PENDING');
      const both = await Promise.all([raw('POST', `/orders/${twice.id}/pay`), raw('POST', `/orders/${twice.id}/pay`)]);
      expect(both.map((b) => b.statusCode).sort()).toEqual([200, 409]);
      expect((await stock(eventId))[type.id]).toBe(3);
    });
  });
});
