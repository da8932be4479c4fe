import { describe, expect, it } from 'vitest';
import { captureAll, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { useTestApp } from '../helpers/suite.js';
import { newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';
import type { TestContext } from '../helpers/app.js';

interface Minute {
  at: string;
  deliveries: { delivered: number; failed: number };
  decisions: { approved: number; declined: number; manual_review: number };
  queued: { identity: number; deliveries: number; housekeeping: number };
}

async function lastHour(ctx: TestContext): Promise<{ from: string; to: string; minutes: Minute[] }> {
  return (await ctx.admin('GET', '/activity')).data;
}
const minuteAt = (report: { minutes: Minute[] }, at: string) => report.minutes.find((m) => m.at === at)!;

describe('GET /admin/v1/activity: the last hour per minute', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx, idv } = useTestApp(() => ({ env: { ...HIGH_LIMITS, WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS }, webhooks: { ca: cert.cert } }), {
    idv: identityTenant,
  });

  it('needs the operator token, in the envelope format', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/admin/v1/activity' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
    const extra = await ctx.app.inject({
      method: 'GET',
      url: '/admin/v1/activity?minutes=5',
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
    });
    expect(extra.statusCode).toBe(400);
  });

  it('answers sixty minutes, oldest first, the current one last, all zero on a quiet deployment', async () => {
    ctx.clock.set('2026-11-22T12:00:30.000Z');
    const report = await lastHour(ctx);
    expect(report.from).toBe('2026-11-22T11:01:00.000Z');
    expect(report.to).toBe('2026-11-22T12:01:00.000Z');
    expect(report.minutes).toHaveLength(60);
    expect(report.minutes[0]!.at).toBe('2026-11-22T11:01:00.000Z');
    expect(report.minutes[59]!.at).toBe('2026-11-22T12:00:00.000Z');
    expect(report.minutes.every((m) => m.deliveries.delivered + m.deliveries.failed === 0)).toBe(true);
    expect(report.minutes.every((m) => m.decisions.approved + m.decisions.declined + m.decisions.manual_review === 0)).toBe(true);
  });

  it('counts webhook attempts in the minute they started: delivered (2xx) and failed', async () => {
    const profileId = await newProfile(ctx);
    await register(ctx, profileId, receiver.url('/activity'));
    receiver.plan(500);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain(); // attempt 1 at 12:00:30 answers 500
    ctx.clock.set('2026-11-22T12:02:10.000Z');
    await ctx.app.jobs.drain(); // attempt 2 at 12:02:10 answers 200
    const report = await lastHour(ctx);
    expect(minuteAt(report, '2026-11-22T12:00:00.000Z').deliveries).toEqual({ delivered: 0, failed: 1 });
    expect(minuteAt(report, '2026-11-22T12:01:00.000Z').deliveries).toEqual({ delivered: 0, failed: 0 });
    expect(minuteAt(report, '2026-11-22T12:02:00.000Z').deliveries).toEqual({ delivered: 1, failed: 0 });
    // The delivery's job waited from 12:00:30 until it ended at 12:02:10.
    expect(minuteAt(report, '2026-11-22T12:00:00.000Z').queued.deliveries).toBe(1);
    expect(minuteAt(report, '2026-11-22T12:01:00.000Z').queued.deliveries).toBe(1);
    expect(minuteAt(report, '2026-11-22T12:02:00.000Z').queued.deliveries).toBe(0);
    expect(minuteAt(report, '2026-11-22T11:59:00.000Z').queued.deliveries).toBe(0);
  });

  it('counts identity decisions by status in their minute', async () => {
    ctx.clock.set('2026-11-22T12:05:20.000Z');
    const approved = await captureAll(ctx, idv.backend);
    expect((await settle(ctx, idv.backend, approved.id)).status).toBe('approved');
    const declined = await captureAll(ctx, idv.backend, { mrz: passportMrz({ breakCheckDigit: true }) });
    expect((await settle(ctx, idv.backend, declined.id)).status).toBe('declined');
    const report = await lastHour(ctx);
    const minute = minuteAt(report, '2026-11-22T12:05:00.000Z');
    expect(minute.decisions).toEqual({ approved: 1, declined: 1, manual_review: 0 });
    // Both decision webhooks went to a port where nothing listens: two failed attempts, two deliveries waiting.
    expect(minute.deliveries).toEqual({ delivered: 0, failed: 2 });
    expect(minute.queued.deliveries).toBe(2);
    expect(report.minutes.at(-1)!.at).toBe('2026-11-22T12:05:00.000Z');
  });

  it('leaves out what is older than the hour', async () => {
    ctx.clock.set('2026-11-22T13:01:00.000Z');
    const report = await lastHour(ctx);
    expect(report.minutes[0]!.at).toBe('2026-11-22T12:02:00.000Z');
    expect(report.minutes.some((m) => m.at === '2026-11-22T12:00:00.000Z')).toBe(false);
    expect(minuteAt(report, '2026-11-22T12:02:00.000Z').deliveries).toEqual({ delivered: 1, failed: 0 });
    expect(report.minutes.reduce((n, m) => n + m.decisions.approved, 0)).toBe(1);
  });

  it('names the addresses failing now, and narrows to one profile and to 6 or 24 hours', async () => {
    // At 13:01 the hour holds 12:02:10 (delivered to the receiver) and 12:05:20 (both decision webhooks, to a closed port).
    const report = (await ctx.admin('GET', '/activity')).data;
    expect(report.bucket_minutes).toBe(1);
    expect(report.failing).toEqual([
      {
        url: 'https://127.0.0.1:9/hooks',
        endpoint_id: null,
        profile_id: idv.profileId,
        failed: 2,
        last_at: '2026-11-22T12:05:20.000Z',
        last_status_code: null,
        last_error: expect.any(String),
        last_delivery_id: expect.any(String),
      },
    ]);
    const delivery = (await ctx.admin('GET', `/webhook-deliveries/${report.failing[0].last_delivery_id}`)).data;
    expect(delivery).toMatchObject({ url: 'https://127.0.0.1:9/hooks', state: 'pending', lastError: report.failing[0].last_error });

    // A day in sixty counts of 24 minutes: the 500 at 12:00:30 is back in, and the receiver is not failing (its latest attempt was delivered).
    const day = (await ctx.admin('GET', '/activity?range=24h')).data;
    expect(day.bucket_minutes).toBe(24);
    expect(day.minutes).toHaveLength(60);
    expect(Date.parse(day.minutes[1].at) - Date.parse(day.minutes[0].at)).toBe(24 * 60_000);
    const total = (r: { minutes: Minute[] }, k: 'delivered' | 'failed') => r.minutes.reduce((n, m) => n + m.deliveries[k], 0);
    expect([total(day, 'delivered'), total(day, 'failed')]).toEqual([1, 3]);
    expect(day.failing.map((f: { url: string }) => f.url)).toEqual(['https://127.0.0.1:9/hooks']);
    expect(day.minutes.reduce((n: number, m: Minute) => n + m.decisions.approved + m.decisions.declined, 0)).toBe(2);

    // One profile: the identity tenant's decisions and its webhooks; another profile's nothing.
    const mine = (await ctx.admin('GET', `/activity?range=24h&profileId=${idv.profileId}`)).data;
    expect([total(mine, 'delivered'), total(mine, 'failed')]).toEqual([0, 2]);
    expect(mine.minutes.reduce((n: number, m: Minute) => n + m.decisions.approved + m.decisions.declined, 0)).toBe(2);
    const other = (await ctx.admin('GET', `/activity?range=24h&profileId=${await newProfile(ctx)}`)).data;
    expect([total(other, 'delivered'), total(other, 'failed')]).toEqual([0, 0]);
    expect(other.failing).toEqual([]);
    expect(other.minutes.reduce((n: number, m: Minute) => n + m.decisions.approved + m.decisions.declined, 0)).toBe(0);

    const refused = await ctx.app.inject({
      method: 'GET',
      url: '/admin/v1/activity?range=7d',
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
    });
    expect(refused.statusCode).toBe(400);
  });
});
