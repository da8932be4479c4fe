import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { ISO_MS, UNKNOWN_ID, UUID, draftEvent, order, organizer, ticketType } from '../helpers/ticketing.js';

describe('ticketing: ticket types, orders and issued tickets', () => {
  const { ctx, org, other } = useTestApp({}, { org: organizer, other: organizer });
  let eventId: string;
  let general: { id: string };
  let table: { id: string };
  let noAttendees: string;
  beforeAll(async () => {
    noAttendees = await org.keyWith(['events:read', 'orders:read', 'tickets:read']);
    eventId = (await draftEvent(org)).id;
    await ctx.admin('POST', `/events/${eventId}/publish`);
    general = await ticketType(ctx, eventId, { name: 'General', price: '25', quantity: 50 });
    ctx.clock.advance(1_000);
    table = await ticketType(ctx, eventId, {
      name: 'VIP table',
      kind: 'TABLE',
      partySize: 6,
      price: '480.5',
      quantity: 4,
      description: 'Bottle service',
      salesEndAt: '2027-01-01T00:00:00Z',
      isActive: true,
    });
  });

  describe('GET /events/{eventId}/ticket-types', () => {
    it('answers data.items only, every field typed as the seed says', async () => {
      const res = await org.call('GET', `/events/${eventId}/ticket-types`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          items: [
            {
              id: general.id,
              name: 'General',
              description: null,
              kind: 'STANDARD',
              partySize: null,
              price: '25.00',
              quantity: 50,
              sold: 0,
              salesEndAt: null,
              isActive: true,
            },
            {
              id: table.id,
              name: 'VIP table',
              description: 'Bottle service',
              kind: 'TABLE',
              partySize: 6,
              price: '480.50',
              quantity: 4,
              sold: 0,
              salesEndAt: '2027-01-01T00:00:00.000Z',
              isActive: true,
            },
          ],
        },
      });
    });

    it('answers an empty list for an event without ticket types, 404 for unknown and foreign events', async () => {
      const bare = await draftEvent(org);
      expect((await org.call('GET', `/events/${bare.id}/ticket-types`)).json()).toEqual({ success: true, data: { items: [] } });
      expect((await org.call('GET', `/events/${UNKNOWN_ID}/ticket-types`)).statusCode).toBe(404);
      expect((await org.call('GET', '/events/nope/ticket-types')).statusCode).toBe(404);
      expect((await other.call('GET', `/events/${eventId}/ticket-types`)).statusCode).toBe(404);
    });
  });

  describe('orders', () => {
    let confirmed: { id: string };
    let pending: { id: string };
    let refunded: { id: string };
    beforeAll(async () => {
      confirmed = await order(
        ctx,
        eventId,
        [
          { ticketTypeId: general.id, quantity: 2 },
          { ticketTypeId: table.id, quantity: 1 },
        ],
        'CONFIRMED',
        { name: 'Ada', email: 'ada@example.com' },
      );
      ctx.clock.advance(1_000);
      pending = await order(ctx, eventId, [{ ticketTypeId: general.id, quantity: 1 }], 'PENDING', {
        name: 'Grace',
        email: 'grace@example.com',
      });
      ctx.clock.advance(1_000);
      refunded = await order(ctx, eventId, [{ ticketTypeId: general.id, quantity: 3 }], 'CONFIRMED', {
        name: 'Linus',
        email: 'linus@example.com',
      });
      await ctx.admin('POST', `/orders/${refunded.id}/refund`);
    });

    it('GET /orders/{orderId} renders the Order with money as strings and buyer only with attendees:read', async () => {
      const res = await org.call('GET', `/orders/${confirmed.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        id: confirmed.id,
        eventId,
        status: 'CONFIRMED',
        totalAmount: '530.50',
        currency: 'USD',
        createdAt: expect.stringMatching(ISO_MS),
        checkedIn: false,
        checkedInAt: null,
        items: [
          { ticketTypeId: general.id, quantity: 2, unitPrice: '25.00' },
          { ticketTypeId: table.id, quantity: 1, unitPrice: '480.50' },
        ],
        buyer: { name: 'Ada', email: 'ada@example.com' },
      });
      const without = (await org.call('GET', `/orders/${confirmed.id}`, undefined, noAttendees)).json().data;
      expect(without).not.toHaveProperty('buyer');
      expect(without.totalAmount).toBe('530.50');
    });

    it('GET /orders/{orderId} answers 404 for unknown, non-uuid and foreign orders', async () => {
      expect((await org.call('GET', `/orders/${UNKNOWN_ID}`)).json().error.code).toBe('NOT_FOUND');
      expect((await org.call('GET', '/orders/42')).statusCode).toBe(404);
      expect((await other.call('GET', `/orders/${confirmed.id}`)).statusCode).toBe(404);
    });

    it('lists orders newest first with paging, total and buyer per scope', async () => {
      const res = await org.call('GET', `/events/${eventId}/orders`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ page: 1, limit: 20, total: 3 });
      expect(data.items.map((o: { id: string }) => o.id)).toEqual([refunded.id, pending.id, confirmed.id]);
      expect(data.items.map((o: { status: string }) => o.status)).toEqual(['REFUNDED', 'PENDING', 'CONFIRMED']);
      expect(data.items[1].buyer).toEqual({ name: 'Grace', email: 'grace@example.com' });
      const plain = (await org.call('GET', `/events/${eventId}/orders`, undefined, noAttendees)).json().data;
      expect(plain.items.every((o: object) => !('buyer' in o))).toBe(true);
      const second = (await org.call('GET', `/events/${eventId}/orders?limit=1&page=2`)).json().data;
      expect(second).toMatchObject({ page: 2, limit: 1, total: 3 });
      expect(second.items.map((o: { id: string }) => o.id)).toEqual([pending.id]);
      expect((await org.call('GET', `/events/${eventId}/orders?limit=100&page=2`)).json().data).toEqual({
        items: [],
        page: 2,
        limit: 100,
        total: 3,
      });
    });

    it('filters orders by status as a free string', async () => {
      const only = async (status: string) => (await org.call('GET', `/events/${eventId}/orders?status=${status}`)).json().data;
      expect((await only('CONFIRMED')).items.map((o: { id: string }) => o.id)).toEqual([confirmed.id]);
      expect((await only('PENDING')).total).toBe(1);
      expect((await only('REFUNDED')).total).toBe(1);
      expect(await only('SOMETHING')).toEqual({ items: [], page: 1, limit: 20, total: 0 });
    });

    it('breaks createdAt ties by id', async () => {
      const tied = (await draftEvent(org)).id;
      const type = await ticketType(ctx, tied);
      const made = [];
      for (let i = 0; i < 4; i++) made.push((await order(ctx, tied, [{ ticketTypeId: type.id, quantity: 1 }], 'PENDING')).id);
      const listed = (await org.call('GET', `/events/${tied}/orders`)).json().data.items.map((o: { id: string }) => o.id);
      expect(listed).toEqual([...made].sort().reverse());
      const tickets = (await org.call('GET', `/events/${tied}/tickets`)).json().data;
      expect(tickets.total).toBe(0);
    });

    it('answers 404 for foreign and unknown events and 400 for bad paging', async () => {
      expect((await other.call('GET', `/events/${eventId}/orders`)).statusCode).toBe(404);
      expect((await org.call('GET', `/events/${UNKNOWN_ID}/orders?limit=0`)).statusCode).toBe(404);
      for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) {
        const res = await org.call('GET', `/events/${eventId}/orders?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('issues tickets for confirmed orders only: one per STANDARD unit, one per table admitting its party', async () => {
      const res = await org.call('GET', `/events/${eventId}/tickets`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ page: 1, limit: 20, total: 3 });
      expect(data.items.every((t: { orderId: string }) => t.orderId === confirmed.id)).toBe(true);
      const byType = (id: string) => data.items.filter((t: { ticketTypeId: string }) => t.ticketTypeId === id);
      expect(byType(general.id).map((t: { quantity: number }) => t.quantity)).toEqual([1, 1]);
      expect(byType(table.id).map((t: { quantity: number }) => t.quantity)).toEqual([6]);
      expect(data.items[0]).toEqual({
        id: expect.stringMatching(UUID),
        orderId: confirmed.id,
        ticketTypeId: expect.any(String),
        quantity: expect.any(Number),
        checkedIn: false,
        checkedInAt: null,
        holder: { name: 'Ada', email: 'ada@example.com' },
      });
      const plain = (await org.call('GET', `/events/${eventId}/tickets`, undefined, noAttendees)).json().data;
      expect(plain.items.every((t: object) => !('holder' in t))).toBe(true);
    });

    it('lists tickets oldest first (id breaks ties) and pages them', async () => {
      ctx.clock.advance(1_000);
      const later = await order(ctx, eventId, [{ ticketTypeId: general.id, quantity: 1 }]);
      const all = (await org.call('GET', `/events/${eventId}/tickets?limit=100`)).json().data.items;
      expect(all).toHaveLength(4);
      expect(all[3].orderId).toBe(later.id);
      expect(all.slice(0, 3).map((t: { id: string }) => t.id)).toEqual(
        all
          .slice(0, 3)
          .map((t: { id: string }) => t.id)
          .sort(),
      );
      const page2 = (await org.call('GET', `/events/${eventId}/tickets?limit=3&page=2`)).json().data;
      expect(page2).toMatchObject({ page: 2, limit: 3, total: 4 });
      expect(page2.items.map((t: { id: string }) => t.id)).toEqual([all[3].id]);
      expect((await org.call('GET', `/events/${eventId}/tickets?page=3&limit=3`)).json().data.items).toEqual([]);
      expect((await org.call('GET', `/events/${eventId}/tickets?limit=101`)).statusCode).toBe(400);
      expect((await other.call('GET', `/events/${eventId}/tickets`)).statusCode).toBe(404);
    });
  });
});
