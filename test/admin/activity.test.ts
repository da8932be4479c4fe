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
});
