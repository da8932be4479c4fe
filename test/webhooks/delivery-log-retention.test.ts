import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { count, deliveriesOf, newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * WEBHOOK_LOG_RETENTION_DAYS (docs/operations.md, "Retention"): delivery attempts, with the excerpts of the
 * receivers' answers they hold, are deleted that many days after they started, by an hourly
 * housekeeping job, two rows a statement here so one run covers several batches.
 */
describe('delivery log retention (WEBHOOK_LOG_RETENTION_DAYS)', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx } = useTestApp(() => ({
    env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS, WEBHOOK_LOG_RETENTION_DAYS: '2' },
    webhooks: { ca: cert.cert },
    retentionBatch: 2,
  }));

  const attempts = async () =>
    rowsOf<{ delivery_id: string; response_body: string | null }>(
      await ctx.app.db.execute(sql`select delivery_id, response_body from webhook_attempts order by started_at`),
    );

  it('keeps attempts younger than the setting and purges older ones with their answers, leaving the deliveries', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url('/retained'));
    receiver.plan({ status: 200, body: 'first answer' }, { status: 200, body: 'second answer' }, { status: 200, body: 'third answer' });
    for (let i = 0; i < 3; i++) await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const old = await attempts();
    expect(old.map((a) => a.response_body).sort()).toEqual(['first answer', 'second answer', 'third answer']);

    ctx.clock.advance(DAY);
    receiver.plan({ status: 200, body: 'recent answer' });
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    expect(await count(ctx, 'webhook_attempts')).toBe(4);

    // A minute short of two days after the first three: the hourly job runs and keeps them.
    ctx.clock.advance(DAY - 60_000);
    await ctx.app.jobs.drain();
    expect(await count(ctx, 'webhook_attempts')).toBe(4);

    // Past two days: one run deletes the three (more than a batch of two); the recent one stays.
    ctx.clock.advance(HOUR);
    await ctx.app.jobs.drain();
    expect((await attempts()).map((a) => a.response_body)).toEqual(['recent answer']);
    const deliveries = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(deliveries).toHaveLength(4);
    for (const d of deliveries) expect(d).toMatchObject({ state: 'succeeded', lastStatusCode: 200 });
    const purged = deliveries.find((d) => d.id === old[0]!.delivery_id)!;
    const detail = (await ctx.admin('GET', `/webhook-deliveries/${purged.id}`)).data;
    expect(detail).toMatchObject({ state: 'succeeded', attempts: [] });

    // And the recent one goes a day later.
    ctx.clock.advance(DAY);
    await ctx.app.jobs.drain();
    expect(await count(ctx, 'webhook_attempts')).toBe(0);
  });
});
