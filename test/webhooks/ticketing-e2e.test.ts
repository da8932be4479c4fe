import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyServiceSignature } from '../../src/webhooks/verify.js';
import { useTestApp } from '../helpers/suite.js';
import { draftEvent, order, organizer, ticketType } from '../helpers/ticketing.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { later, register, TEST_DELAYS } from '../helpers/webhooks.js';

const stripe = new Stripe('sk_test_unused');

describe('ticketing state changes reach a registered receiver, signed', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx } = useTestApp(() => ({ env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS }, webhooks: { ca: cert.cert } }));

  it('publish, pay, check in, refund and cancel through /admin/v1 each deliver their event, through a receiver outage', async () => {
    const org = await organizer(ctx);
    const endpoint = await register(ctx, org.profileId, receiver.url('/ticketing'));
    const event = await draftEvent(org);
    const type = await ticketType(ctx, event.id);
    await ctx.admin('POST', `/events/${event.id}/publish`);
    const pending = await order(ctx, event.id, [{ ticketTypeId: type.id, quantity: 2 }], 'PENDING');
    receiver.plan(503);
    await ctx.admin('POST', `/orders/${pending.id}/pay`);
    const tickets = (await org.call('GET', `/events/${event.id}/tickets`)).json().data.items;
    await ctx.admin('POST', `/events/${event.id}/check-ins`, { ticketId: tickets[0].id }, 201);
    await ctx.admin('POST', `/orders/${pending.id}/refund`);
    await ctx.admin('POST', `/events/${event.id}/cancel`);
    await ctx.app.jobs.drain();
    await later(ctx, 1200);

    const got = receiver.received.filter((r) => r.path === '/ticketing');
    const now = ctx.clock.now();
    for (const r of got) {
      const header = r.headers['service-signature'] as string;
      expect(stripe.webhooks.constructEvent(r.body, header, endpoint.secret, 300, undefined, now.getTime()).id).toBe(
        r.headers['service-event-id'],
      );
      expect(verifyServiceSignature(r.body, header, endpoint.secret, { toleranceSec: 300, now: Math.floor(now.getTime() / 1000) }).ok).toBe(
        true,
      );
    }
    const byType = new Map(got.map((r) => [JSON.parse(r.body).type as string, JSON.parse(r.body)]));
    expect([...byType.keys()].sort()).toEqual(['event.canceled', 'event.published', 'order.paid', 'order.refunded', 'ticket.checked_in']);
    expect(byType.get('order.paid').data).toMatchObject({ id: pending.id, status: 'CONFIRMED', eventId: event.id });
    expect(byType.get('order.refunded').data).toMatchObject({ id: pending.id, status: 'REFUNDED' });
    expect(byType.get('ticket.checked_in').data).toMatchObject({ id: tickets[0].id, eventId: event.id, checkedIn: true });
    expect(byType.get('event.published').data).toMatchObject({ id: event.id, status: 'ACTIVE' });
    expect(byType.get('event.canceled').data).toMatchObject({ id: event.id, status: 'CANCELLED' });
    // The one refused attempt was retried with the same event; the log shows both attempts.
    const log = (await ctx.admin('GET', `/webhook-deliveries?endpointId=${endpoint.id}`)).data.items;
    expect(log).toHaveLength(5);
    expect(log.every((d: { state: string }) => d.state === 'succeeded')).toBe(true);
    const retried = log.find((d: { attemptCount: number }) => d.attemptCount === 2);
    expect(retried.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([503, 200]);
    expect(got.filter((r) => r.headers['service-event-id'] === retried.eventId)).toHaveLength(2);
  });
});
