import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { verifyServiceSignature } from '../../src/webhooks/verify.js';
import { useTestApp } from '../helpers/suite.js';
import { startReceiver, useCertificate, useReceiver } from '../helpers/receivers.js';
import { count, deliveriesOf, later, newProfile, publish, register, runSchedule, TEST_DELAYS } from '../helpers/webhooks.js';

const stripe = new Stripe('sk_test_unused');

describe('webhook delivery to real HTTPS receivers', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx } = useTestApp(() => ({
    env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS, WEBHOOK_TIMEOUT_MS: '1500' },
    webhooks: { ca: cert.cert },
  }));

  const nowSec = () => Math.floor(ctx.clock.now().getTime() / 1000);

  it('delivers a signed event that stripe-node and our verifier both accept', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/signed'));
    const { id } = await publish(ctx, profileId, 'order.paid', { id: 'order-1', totalAmount: '25.00' });
    await ctx.app.jobs.drain();
    const got = receiver.received.filter((r) => r.path === '/signed');
    expect(got).toHaveLength(1);
    const [req] = got;
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toMatch(/^PartnerServices-Webhooks\//);
    expect(req!.headers['service-event-id']).toBe(id);
    expect(req!.headers['service-delivery-attempt']).toBe('1');
    expect(JSON.parse(req!.body)).toEqual({
      id,
      type: 'order.paid',
      created: ctx.clock.now().toISOString(),
      data: { id: 'order-1', totalAmount: '25.00' },
    });
    const header = req!.headers['service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = stripe.webhooks.constructEvent(req!.body, header, endpoint.secret, 300, undefined, ctx.clock.now().getTime());
    expect(event.id).toBe(id);
    expect(verifyServiceSignature(req!.body, header, endpoint.secret, { toleranceSec: 300, now: nowSec() })).toMatchObject({ ok: true });
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({
      eventId: id,
      type: 'order.paid',
      state: 'succeeded',
      lastStatusCode: 200,
      nextAttemptAt: null,
      attemptCount: 1,
    });
    expect(delivery.attempts).toEqual([
      { attempt: 1, at: ctx.clock.now().toISOString(), statusCode: 200, durationMs: expect.any(Number), error: null },
    ]);
  });

  it('sends an attempt once when two runs of one delivery start together', async () => {
    const profileId = await newProfile(ctx);
    await register(ctx, profileId, receiver.url('/twice-started'));
    receiver.plan(500);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    // A second job for the same delivery (as a lost job end would leave one to run again), due
    // with the retry: both are claimed together and their attempts start in one statement.
    await ctx.app.db.execute(sql`insert into jobs (queue, payload, state, run_at, concurrency_key, created_at, updated_at)
      select queue, payload, 'pending', run_at, concurrency_key, created_at, updated_at from jobs
      where queue = 'webhooks.deliver' and state = 'pending'`);
    ctx.clock.advance(60_000);
    await ctx.app.jobs.drain();
    const got = receiver.received.filter((r) => r.path === '/twice-started');
    expect(got.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2']);
    const [delivery] = await deliveriesOf(ctx, `profileId=${profileId}`);
    expect(delivery).toMatchObject({ state: 'succeeded', attemptCount: 2 });
  });

  it('sends only the event types an endpoint asked for', async () => {
    const profileId = await newProfile(ctx);
    await register(ctx, profileId, receiver.url('/all'));
    await register(ctx, profileId, receiver.url('/published-only'), ['event.published']);
    await publish(ctx, profileId, 'order.paid');
    await publish(ctx, profileId, 'event.published', { id: 'ev' });
    await ctx.app.jobs.drain();
    expect(
      receiver.received
        .filter((r) => r.path === '/all')
        .map((r) => JSON.parse(r.body).type)
        .sort(),
    ).toEqual(['event.published', 'order.paid']);
    expect(receiver.received.filter((r) => r.path === '/published-only').map((r) => JSON.parse(r.body).type)).toEqual(['event.published']);
  });

  it('retries a 500 and sends the same event id and the same bytes again', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/flaky'));
    receiver.plan(500);
    const { id } = await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    let [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: 500, attemptCount: 1 });
    const next = new Date(delivery.nextAttemptAt).getTime() - ctx.clock.now().getTime();
    expect(next).toBeGreaterThanOrEqual(1000);
    expect(next).toBeLessThanOrEqual(1200);
    await later(ctx, 500);
    expect(receiver.received.filter((r) => r.path === '/flaky')).toHaveLength(1);
    await later(ctx, 700);
    const got = receiver.received.filter((r) => r.path === '/flaky');
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers['service-event-id'])).toEqual([id, id]);
    expect(got.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2']);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(
      verifyServiceSignature(got[1]!.body, got[1]!.headers['service-signature'] as string, endpoint.secret, {
        toleranceSec: 300,
        now: nowSec(),
      }).ok,
    ).toBe(true);
    [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'succeeded', lastStatusCode: 200, attemptCount: 2 });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
  });

  it('times out a receiver that never answers and tries again', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/hang'));
    receiver.plan('hang');
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    let [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: null, lastError: 'no answer within 1500 ms' });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(1490);
    await later(ctx, 1200);
    [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'succeeded', attemptCount: 2 });
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/moved'));
    receiver.plan(302);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'pending', lastStatusCode: 302 });
    expect(receiver.received.filter((r) => r.path === '/moved')).toHaveLength(1);
  });

  it('retries a receiver that is down on schedule and finally marks the delivery failed', async () => {
    const down = await startReceiver(cert);
    await down.close();
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, down.url());
    await publish(ctx, profileId);
    await runSchedule(ctx);
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: 4, maxAttempts: 4, nextAttemptAt: null });
    expect(delivery.attempts).toHaveLength(4);
    for (const a of delivery.attempts) expect(a.error).toMatch(/ECONNREFUSED/);
    expect((await deliveriesOf(ctx, `endpointId=${endpoint.id}&status=failed`)).map((d) => d.id)).toEqual([delivery.id]);
    const [row] = rowsOf(
      await ctx.app.db.execute(sql`select consecutive_failures, disabled_at from webhook_endpoints where id = ${endpoint.id}`),
    );
    expect(row).toMatchObject({ consecutive_failures: 1, disabled_at: null });
  });

  it('emits nothing for a change that rolls back', async () => {
    const profileId = await newProfile(ctx);
    await register(ctx, profileId, receiver.url('/rollback'));
    const before = await count(ctx, 'webhook_events');
    await expect(
      ctx.app.db.transaction(async (tx) => {
        await ctx.app.webhooks.publish(tx, { profileId, type: 'order.paid', data: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await ctx.app.jobs.drain();
    expect(await count(ctx, 'webhook_events')).toBe(before);
    expect(receiver.received.filter((r) => r.path === '/rollback')).toHaveLength(0);
  });

  it('disables an endpoint that answers 410 Gone and sends it nothing more', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/gone'));
    receiver.plan(410);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({ state: 'failed', lastStatusCode: 410, attemptCount: 1 });
    const listed = (await ctx.admin('GET', `/profiles/${profileId}/webhook-endpoints`)).data.items;
    expect(listed[0]).toMatchObject({ id: endpoint.id, enabled: false, disabledReason: expect.stringContaining('410') });
    await publish(ctx, profileId);
    await later(ctx, 10_000);
    expect(receiver.received.filter((r) => r.path === '/gone')).toHaveLength(1);
  });

  it('disables an endpoint after 50 deliveries in a row failed', async () => {
    const down = await startReceiver(cert);
    await down.close();
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, down.url());
    await ctx.app.db.execute(sql`update webhook_endpoints set consecutive_failures = 49 where id = ${endpoint.id}`);
    await publish(ctx, profileId);
    await runSchedule(ctx);
    const listed = (await ctx.admin('GET', `/profiles/${profileId}/webhook-endpoints`)).data.items;
    expect(listed[0]).toMatchObject({ enabled: false, disabledReason: '50 deliveries in a row failed' });
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/rotate'));
    const { data } = await ctx.admin('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(data).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(data.secret).not.toBe(endpoint.secret);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [first] = receiver.received.filter((r) => r.path === '/rotate');
    const header = first!.headers['service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of [data.secret, endpoint.secret]) {
      expect(stripe.webhooks.constructEvent(first!.body, header, secret, 300, undefined, ctx.clock.now().getTime()).type).toBe(
        'order.paid',
      );
      expect(verifyServiceSignature(first!.body, header, secret, { toleranceSec: 300, now: nowSec() }).ok).toBe(true);
    }
    ctx.clock.advance(24 * 3600_000 + 1000);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const second = receiver.received.filter((r) => r.path === '/rotate')[1]!;
    const after = second.headers['service-signature'] as string;
    expect(after.match(/v1=/g)).toHaveLength(1);
    expect(verifyServiceSignature(second.body, after, endpoint.secret, { toleranceSec: 300, now: nowSec() })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
    expect(verifyServiceSignature(second.body, after, data.secret, { toleranceSec: 300, now: nowSec() }).ok).toBe(true);
  });

  it('sends direct events with their named signer under their policy, the override keeping its attempt count', async () => {
    const profileId = await newProfile(ctx);
    ctx.app.webhooks.registerSigner('test-signer', {
      sign: ({ eventId, timestampSec, body }) => ({
        'webhook-id': eventId,
        'webhook-timestamp': String(timestampSec),
        'x-body-length': String(body.length),
      }),
    });
    ctx.app.webhooks.registerPolicy('three-tries', { delaysMs: [60_000, 300_000], timeoutMs: 10_000 });
    receiver.plan(500, 503, 500, 500);
    const { id } = await ctx.app.db.transaction((tx) =>
      ctx.app.webhooks.sendDirect(tx, {
        profileId,
        type: 'verification.approved',
        data: { verification_id: 'v1' },
        url: receiver.url('/direct'),
        signer: 'test-signer',
        policy: 'three-tries',
      }),
    );
    await runSchedule(ctx);
    const got = receiver.received.filter((r) => r.path === '/direct');
    expect(got).toHaveLength(3);
    expect(got[0]!.headers).toMatchObject({ 'webhook-id': id, 'x-body-length': String(got[0]!.body.length), 'service-event-id': id });
    expect(got[0]!.headers['service-signature']).toBeUndefined();
    const [delivery] = await deliveriesOf(ctx, `eventId=${id}`);
    expect(delivery).toMatchObject({ endpointId: null, state: 'failed', attemptCount: 3, maxAttempts: 3 });
    // A signer that cannot sign (HMAC without an endpoint secret) sends nothing unsigned: failed attempts.
    const unsigned = await ctx.app.db.transaction((tx) =>
      ctx.app.webhooks.sendDirect(tx, {
        profileId,
        type: 'verification.declined',
        data: {},
        url: receiver.url('/unsigned'),
        signer: 'service-hmac',
        policy: 'three-tries',
      }),
    );
    await runSchedule(ctx);
    const [failed] = await deliveriesOf(ctx, `eventId=${unsigned.id}`);
    expect(failed).toMatchObject({ state: 'failed', attemptCount: 3, lastError: expect.stringContaining('could not sign') });
    expect(receiver.received.filter((r) => r.path === '/unsigned')).toHaveLength(0);
    await expect(
      ctx.app.db.transaction((tx) =>
        ctx.app.webhooks.sendDirect(tx, {
          profileId,
          type: 't',
          data: {},
          url: 'http://example.com',
          signer: 'test-signer',
          policy: 'three-tries',
        }),
      ),
    ).rejects.toThrow('https');
    await expect(
      ctx.app.db.transaction((tx) =>
        ctx.app.webhooks.sendDirect(tx, { profileId, type: 't', data: {}, url: receiver.url(), signer: 'nope', policy: 'three-tries' }),
      ),
    ).rejects.toThrow('unknown webhook signer');
  });
});
