import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { verifyServiceSignature } from '../../src/webhooks/verify.js';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { deliveriesOf, later, newProfile, publish, register, runSchedule, TEST_DELAYS } from '../helpers/webhooks.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('operator API: webhook endpoints and the delivery log', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const logLines: string[] = [];
  const { ctx } = useTestApp(() => ({
    env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS, LOG_LEVEL: 'trace' },
    webhooks: { ca: cert.cert },
    logStream: { write: (line: string) => void logLines.push(line) },
  }));

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `/admin/v1${url}`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      ...(payload ? { payload } : {}),
    });

  it('registers an endpoint, shows its secret once and lists it without', async () => {
    const profileId = await newProfile(ctx);
    const res = await call('POST', `/profiles/${profileId}/webhook-endpoints`, {
      url: receiver.url('/a'),
      events: ['order.paid', 'order.refunded'],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      id: expect.any(String),
      url: receiver.url('/a'),
      events: ['order.paid', 'order.refunded'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      enabled: true,
    });
    const all = await register(ctx, profileId, receiver.url('/b'));
    expect(all.events).toEqual([]);
    const listed = (await call('GET', `/profiles/${profileId}/webhook-endpoints`)).json().data.items;
    expect(listed.map((e: { id: string }) => e.id).sort()).toEqual([created.id, all.id].sort());
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('refuses bad URLs, unknown event types and unknown profiles', async () => {
    const profileId = await newProfile(ctx);
    for (const url of ['http://127.0.0.1/hook', 'ftp://example.com/x', 'not a url', 'https://user:pw@127.0.0.1/x']) {
      const res = await call('POST', `/profiles/${profileId}/webhook-endpoints`, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body.url', message: expect.any(String) }] });
    }
    const badType = await call('POST', `/profiles/${profileId}/webhook-endpoints`, {
      url: receiver.url(),
      events: ['order.paid', 'order.shipped'],
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error.details[0].path).toBe('body.events.1');
    expect((await call('POST', `/profiles/${profileId}/webhook-endpoints`, { url: receiver.url(), events: [] })).statusCode).toBe(400);
    expect((await call('POST', `/profiles/${profileId}/webhook-endpoints`, { url: receiver.url(), extra: 1 })).statusCode).toBe(400);
    expect((await call('POST', `/profiles/${UNKNOWN}/webhook-endpoints`, { url: receiver.url() })).statusCode).toBe(404);
    expect((await call('POST', `/profiles/nope/webhook-endpoints`, { url: receiver.url() })).json().error.code).toBe('NOT_FOUND');
    expect((await call('GET', `/profiles/${UNKNOWN}/webhook-endpoints`)).statusCode).toBe(404);
    for (const path of [
      `/webhook-endpoints/${UNKNOWN}/disable`,
      `/webhook-endpoints/${UNKNOWN}/enable`,
      `/webhook-endpoints/${UNKNOWN}/rotate-secret`,
      `/webhook-endpoints/x/test`,
      `/webhook-deliveries/${UNKNOWN}/redeliver`,
    ]) {
      const res = await call('POST', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    expect((await call('GET', `/webhook-deliveries/${UNKNOWN}`)).statusCode).toBe(404);
  });

  it("filters the delivery log by profile: only that profile's deliveries", async () => {
    const mine = await newProfile(ctx);
    const theirs = await newProfile(ctx);
    const myEndpoint = await register(ctx, mine, receiver.url('/mine'));
    const theirEndpoint = await register(ctx, theirs, receiver.url('/theirs'));
    const sent = (await call('POST', `/webhook-endpoints/${myEndpoint.id}/test`)).json().data;
    await call('POST', `/webhook-endpoints/${theirEndpoint.id}/test`);
    await ctx.app.jobs.drain();
    const listed = (await call('GET', `/webhook-deliveries?profileId=${mine}`)).json().data;
    expect(listed).toMatchObject({ total: 1, items: [{ id: sent.deliveryId, endpointId: myEndpoint.id }] });
    expect((await call('GET', `/webhook-deliveries?profileId=${UNKNOWN}`)).json().data).toMatchObject({ total: 0, items: [] });
    const everyone = (await call('GET', '/webhook-deliveries?limit=100')).json().data;
    expect(everyone.total).toBeGreaterThanOrEqual(2);
  });

  it('validates the delivery log query', async () => {
    for (const q of ['status=done', 'profileId=x', 'endpointId=x', 'limit=0', 'limit=101', 'page=0', 'color=red']) {
      const res = await call('GET', `/webhook-deliveries?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('sends a signed test event to one endpoint and logs it', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/test-event'), ['order.paid']);
    const res = await call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(res.statusCode).toBe(202);
    const { eventId, deliveryId } = res.json().data;
    await ctx.app.jobs.drain();
    const [got] = receiver.received.filter((r) => r.path === '/test-event');
    expect(JSON.parse(got!.body)).toMatchObject({ id: eventId, type: 'webhook.test', data: { endpointId: endpoint.id } });
    expect(
      verifyServiceSignature(got!.body, got!.headers['service-signature'] as string, endpoint.secret, {
        toleranceSec: 300,
        now: Math.floor(ctx.clock.now().getTime() / 1000),
      }).ok,
    ).toBe(true);
    const delivery = (await call('GET', `/webhook-deliveries/${deliveryId}`)).json().data;
    expect(delivery).toMatchObject({ id: deliveryId, eventId, type: 'webhook.test', endpointId: endpoint.id, state: 'succeeded' });
  });

  it('replays a delivered event on request: same id, same body, the next attempt number', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/replay'));
    const { id } = await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}&status=succeeded`);
    const res = await call('POST', `/webhook-deliveries/${delivery.id}/redeliver`);
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ id: delivery.id, state: 'pending', maxAttempts: 2 });
    await ctx.app.jobs.drain();
    const got = receiver.received.filter((r) => r.path === '/replay');
    expect(got.map((r) => [r.headers['service-event-id'], r.headers['service-delivery-attempt']])).toEqual([
      [id, '1'],
      [id, '2'],
    ]);
    expect(got[1]!.body).toBe(got[0]!.body);
    const after = (await call('GET', `/webhook-deliveries/${delivery.id}`)).json().data;
    expect(after).toMatchObject({ state: 'succeeded', attemptCount: 2 });
    expect(after.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
  });

  it('brings a scheduled retry forward, and gives a failed delivery one more attempt', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/forward'));
    receiver.plan(500);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [pending] = await deliveriesOf(ctx, `endpointId=${endpoint.id}&status=pending`);
    expect(pending.nextAttemptAt > ctx.clock.now().toISOString()).toBe(true);
    await call('POST', `/webhook-deliveries/${pending.id}/redeliver`);
    await ctx.app.jobs.drain();
    expect(receiver.received.filter((r) => r.path === '/forward')).toHaveLength(2);
    expect((await call('GET', `/webhook-deliveries/${pending.id}`)).json().data).toMatchObject({ state: 'succeeded', attemptCount: 2 });
    // The scheduled job was moved, not duplicated: nothing more arrives later.
    await later(ctx, 10_000);
    expect(receiver.received.filter((r) => r.path === '/forward')).toHaveLength(2);

    const otherProfile = await newProfile(ctx);
    receiver.plan(500, 500, 500, 500, 500);
    const failing = await register(ctx, otherProfile, receiver.url('/failing'));
    await publish(ctx, otherProfile, 'event.canceled');
    await runSchedule(ctx);
    const [failed] = await deliveriesOf(ctx, `endpointId=${failing.id}`);
    expect(failed).toMatchObject({ state: 'failed', attemptCount: 4 });
    await call('POST', `/webhook-deliveries/${failed.id}/redeliver`);
    await ctx.app.jobs.drain();
    expect((await call('GET', `/webhook-deliveries/${failed.id}`)).json().data).toMatchObject({
      state: 'failed',
      attemptCount: 5,
      maxAttempts: 5,
      lastStatusCode: 500,
    });
    await call('POST', `/webhook-deliveries/${failed.id}/redeliver`);
    await ctx.app.jobs.drain();
    expect((await call('GET', `/webhook-deliveries/${failed.id}`)).json().data).toMatchObject({ state: 'succeeded', attemptCount: 6 });
  });

  it('disables and enables an endpoint; a disabled one gets nothing and cannot be tested or replayed', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/toggle'));
    receiver.plan(500);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [pending] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    const disabled = await call('POST', `/webhook-endpoints/${endpoint.id}/disable`);
    expect(disabled.json().data).toMatchObject({ enabled: false, disabledReason: 'disabled by the operator' });
    await later(ctx, 1200);
    expect((await call('GET', `/webhook-deliveries/${pending.id}`)).json().data).toMatchObject({
      state: 'failed',
      lastError: 'endpoint disabled',
      attemptCount: 1,
    });
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    expect(await deliveriesOf(ctx, `endpointId=${endpoint.id}`)).toHaveLength(1);
    for (const path of [`/webhook-endpoints/${endpoint.id}/test`, `/webhook-deliveries/${pending.id}/redeliver`]) {
      const res = await call('POST', path);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('ENDPOINT_DISABLED');
    }
    expect((await call('POST', `/webhook-endpoints/${endpoint.id}/enable`)).json().data).toMatchObject({
      enabled: true,
      disabledAt: null,
      disabledReason: null,
    });
    await call('POST', `/webhook-deliveries/${pending.id}/redeliver`);
    await ctx.app.jobs.drain();
    expect((await call('GET', `/webhook-deliveries/${pending.id}`)).json().data.state).toBe('succeeded');
    expect(receiver.received.filter((r) => r.path === '/toggle')).toHaveLength(2);
  });

  it('never writes an endpoint secret to the log', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/quiet'));
    const rotated = (await call('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`)).json().data.secret;
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    expect(receiver.received.some((r) => r.path === '/quiet')).toBe(true);
    const log = logLines.join('');
    expect(log).toContain('webhook attempt');
    expect(log).not.toContain(endpoint.secret);
    expect(log).not.toContain(rotated);
  });

  it('counts the delivery log up to 10,000 and says when there are more, and later pages still answer', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/many'));
    // 10,001 delivered events, written in bulk (the API would take minutes to make them one by one).
    await ctx.app.db.execute(sql`
      with events as (
        insert into webhook_events (profile_id, type, body, payload, created_at)
        select ${profileId}, 'order.paid', '{}', i::text, now() - i * interval '1 second' from generate_series(1, 10001) i
        returning id, created_at)
      insert into webhook_deliveries (event_id, profile_id, endpoint_id, url, signer, policy, state, attempts, max_attempts, created_at, updated_at)
      select id, ${profileId}, ${endpoint.id}, ${endpoint.url}, 'hmac', 'ticketing', 'succeeded', 1, 8, created_at, created_at from events`);
    const first = (await call('GET', `/webhook-deliveries?profileId=${profileId}&limit=20`)).json().data;
    expect(first).toMatchObject({ total: 10_000, totalCapped: true, page: 1, limit: 20 });
    expect(first.items).toHaveLength(20);
    const past = (await call('GET', `/webhook-deliveries?profileId=${profileId}&limit=20&page=501`)).json().data;
    expect(past).toMatchObject({ total: 10_000, totalCapped: true, page: 501 });
    expect(past.items).toHaveLength(1);

    const other = await newProfile(ctx);
    await register(ctx, other, receiver.url('/few'));
    await publish(ctx, other);
    await ctx.app.jobs.drain();
    const few = (await call('GET', `/webhook-deliveries?profileId=${other}`)).json().data;
    expect(few).toMatchObject({ total: 1, totalCapped: false });
  });

  it('gives the deliveries made before migration 0025 their event’s profile, and lists them by it', async () => {
    const profiles = [await newProfile(ctx), await newProfile(ctx)];
    for (const profileId of profiles) {
      await register(ctx, profileId, receiver.url('/before'));
      await publish(ctx, profileId);
    }
    await ctx.app.jobs.drain();
    const kept = async () =>
      rowsOf<{ id: string; profile_id: string }>(
        await ctx.app.db.execute(
          sql`select id, profile_id from webhook_deliveries where profile_id in (${profiles[0]}, ${profiles[1]}) order by id`,
        ),
      );
    const before = await kept();
    expect(before.map((d) => d.profile_id).sort()).toEqual([...profiles].sort());
    // The table as it was before the migration: no profile column, no index on it.
    await ctx.app.db.execute(sql`alter table webhook_deliveries drop column profile_id`);
    const migration = readFileSync(new URL('../../migrations/0025_delivery_profile.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.app.db.execute(sql.raw(statement));
    expect(await kept()).toEqual(before);
    for (const profileId of profiles) {
      const listed = (await call('GET', `/webhook-deliveries?profileId=${profileId}`)).json().data;
      expect(listed).toMatchObject({ total: 1, totalCapped: false });
    }
  });
});
