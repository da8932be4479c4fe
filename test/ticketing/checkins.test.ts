import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { ISO_MS, UNKNOWN_ID, UUID, draftEvent, order, organizer, ticketType, webhookWatch } from '../helpers/ticketing.js';

describe('ticketing: door check-ins', () => {
  const { ctx, org, other } = useTestApp({}, { org: organizer, other: organizer });
  let eventId: string;
  let typeId: string;
  beforeAll(async () => {
    eventId = (await draftEvent(org)).id;
    await ctx.admin('POST', `/events/${eventId}/publish`);
    typeId = (await ticketType(ctx, eventId)).id;
  });

  const scan = async (ticketId: string, at = eventId) => {
    const res = await ctx.admin('POST', `/events/${at}/check-ins`, { ticketId }, 201);
    return res.data as { id: string; orderId: string | null; result: string; reasonCode: string | null; scannedAt: string };
  };
  const ticketsOf = async (orderId: string, event = eventId, as = org) =>
    (await as.call('GET', `/events/${event}/tickets?limit=100`))
      .json()
      .data.items.filter((t: { orderId: string }) => t.orderId === orderId);

  it('ALLOWs a first entry, FLAGs the second, and marks the order once all its tickets are in', async () => {
    const bought = await order(ctx, eventId, [{ ticketTypeId: typeId, quantity: 2 }]);
    const [first, second] = await ticketsOf(bought.id);
    const fresh = await webhookWatch(ctx, org.profileId);
    ctx.clock.advance(1_000);
    const allow = await scan(first.id);
    expect(allow).toEqual({
      id: expect.stringMatching(UUID),
      orderId: bought.id,
      result: 'ALLOW',
      reasonCode: null,
      scannedAt: ctx.clock.now().toISOString(),
    });
    const afterFirst = (await ticketsOf(bought.id)).find((t: { id: string }) => t.id === first.id);
    expect(afterFirst).toMatchObject({ checkedIn: true, checkedInAt: ctx.clock.now().toISOString() });
    expect((await org.call('GET', `/orders/${bought.id}`)).json().data).toMatchObject({ checkedIn: false, checkedInAt: null });

    const rows = await fresh();
    expect(rows.map((r) => r.type)).toEqual(['ticket.checked_in']);
    expect(rows[0]!.body.data).toEqual({ ...afterFirst, eventId, holder: { name: 'Ada Lovelace', email: 'ada@example.com' } });

    const flag = await scan(first.id);
    expect(flag).toMatchObject({ orderId: bought.id, result: 'FLAG', reasonCode: 'ALREADY_CHECKED_IN' });
    expect(await fresh()).toHaveLength(1);

    ctx.clock.advance(1_000);
    expect((await scan(second.id)).result).toBe('ALLOW');
    expect((await org.call('GET', `/orders/${bought.id}`)).json().data).toMatchObject({
      checkedIn: true,
      checkedInAt: ctx.clock.now().toISOString(),
    });
  });

  it('DENYs refunded tickets, other events’ tickets and unknown tickets', async () => {
    const refunded = await order(ctx, eventId, [{ ticketTypeId: typeId, quantity: 1 }]);
    const [voided] = await ticketsOf(refunded.id);
    await ctx.admin('POST', `/orders/${refunded.id}/refund`);
    const fresh = await webhookWatch(ctx, org.profileId);
    expect(await scan(voided.id)).toMatchObject({ result: 'DENY', reasonCode: 'TICKET_REFUNDED', orderId: refunded.id });

    const elsewhere = (await draftEvent(org)).id;
    const elsewhereOrder = await order(ctx, elsewhere, [{ ticketTypeId: (await ticketType(ctx, elsewhere)).id, quantity: 1 }]);
    const [wrong] = await ticketsOf(elsewhereOrder.id, elsewhere);
    expect(await scan(wrong.id)).toMatchObject({ result: 'DENY', reasonCode: 'WRONG_EVENT', orderId: elsewhereOrder.id });

    for (const unknown of [UNKNOWN_ID, 'garbage-from-a-qr-code']) {
      expect(await scan(unknown)).toMatchObject({ result: 'DENY', reasonCode: 'UNKNOWN_TICKET', orderId: null });
    }
    // Another profile's ticket is unknown here, and its order is never named.
    const theirEvent = (await draftEvent(other)).id;
    const theirOrder = await order(ctx, theirEvent, [{ ticketTypeId: (await ticketType(ctx, theirEvent)).id, quantity: 1 }]);
    const [theirs] = await ticketsOf(theirOrder.id, theirEvent, other);
    expect(await scan(theirs.id)).toMatchObject({ result: 'DENY', reasonCode: 'UNKNOWN_TICKET', orderId: null });
    expect((await ticketsOf(theirOrder.id, theirEvent, other))[0].checkedIn).toBe(false);
    expect((await fresh()).filter((r) => r.type === 'ticket.checked_in')).toEqual([]);
  });

  it('lets only one of two simultaneous scans of a ticket in', async () => {
    const bought = await order(ctx, eventId, [{ ticketTypeId: typeId, quantity: 1 }]);
    const [ticket] = await ticketsOf(bought.id);
    const fresh = await webhookWatch(ctx, org.profileId);
    const results = await Promise.all([scan(ticket.id), scan(ticket.id), scan(ticket.id)]);
    expect(results.map((r) => r.result).sort()).toEqual(['ALLOW', 'FLAG', 'FLAG']);
    expect(await fresh()).toHaveLength(1);
  });

  it('answers operator errors: 404 for unknown events, 400 for a bad body', async () => {
    expect((await ctx.admin('POST', `/events/${UNKNOWN_ID}/check-ins`, { ticketId: UNKNOWN_ID }, 404)).error.code).toBe('NOT_FOUND');
    expect((await ctx.admin('POST', `/events/${eventId}/check-ins`, {}, 400)).error.code).toBe('VALIDATION_ERROR');
    expect((await ctx.admin('POST', `/events/${eventId}/check-ins`, { ticketId: 'x', extra: 1 }, 400)).error.code).toBe('VALIDATION_ERROR');
  });

  describe('GET /events/{eventId}/check-ins', () => {
    let listed: string;
    const made: string[] = [];
    beforeAll(async () => {
      listed = (await draftEvent(org)).id;
      const type = await ticketType(ctx, listed);
      const bought = await order(ctx, listed, [{ ticketTypeId: type.id, quantity: 3 }]);
      const tickets = await ticketsOf(bought.id, listed);
      for (const t of tickets) {
        ctx.clock.advance(1_000);
        made.push((await scan(t.id, listed)).id);
      }
      ctx.clock.advance(1_000);
      made.push((await scan(UNKNOWN_ID, listed)).id);
    });

    it('lists every scan of the event, newest first, with paging and total', async () => {
      const res = await org.call('GET', `/events/${listed}/check-ins`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ page: 1, limit: 20, total: 4 });
      expect(data.items.map((c: { id: string }) => c.id)).toEqual([...made].reverse());
      expect(data.items[0]).toEqual({
        id: made[3],
        orderId: null,
        result: 'DENY',
        reasonCode: 'UNKNOWN_TICKET',
        scannedAt: expect.stringMatching(ISO_MS),
      });
      expect(data.items[3]).toMatchObject({ result: 'ALLOW', reasonCode: null, orderId: expect.stringMatching(UUID) });
      const page = (await org.call('GET', `/events/${listed}/check-ins?limit=1&page=4`)).json().data;
      expect(page).toMatchObject({ page: 4, limit: 1, total: 4 });
      expect(page.items.map((c: { id: string }) => c.id)).toEqual([made[0]]);
      expect((await org.call('GET', `/events/${listed}/check-ins?limit=1&page=5`)).json().data.items).toEqual([]);
    });

    it('answers 404 for foreign, unknown and non-uuid events, 400 for bad paging, 403 without tickets:read', async () => {
      expect((await other.call('GET', `/events/${listed}/check-ins`)).statusCode).toBe(404);
      expect((await org.call('GET', `/events/${UNKNOWN_ID}/check-ins`)).statusCode).toBe(404);
      expect((await org.call('GET', '/events/1/check-ins')).statusCode).toBe(404);
      expect((await org.call('GET', `/events/${listed}/check-ins?limit=0`)).statusCode).toBe(400);
      const key = await org.keyWith(['events:read', 'orders:read', 'attendees:read']);
      expect((await org.call('GET', `/events/${listed}/check-ins`, undefined, key)).json().error.code).toBe('INSUFFICIENT_SCOPE');
    });
  });
});
