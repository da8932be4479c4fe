import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { api, captureAll, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { newProfile, publish, register } from '../helpers/webhooks.js';

/**
 * The runner as the server runs it (started, woken by commits, the poll an hour away), against
 * receivers that never answer in time. Real time, bounded: the waits are what is measured.
 */
describe('one dead endpoint does not hold back other tenants or identity decisions', () => {
  const cert = useCertificate();
  const dead = useReceiver(cert);
  const deadToo = useReceiver(cert);
  const live = useReceiver(cert);
  beforeAll(() => {
    dead.fallback = 'hang';
    deadToo.fallback = 'hang';
  });
  const { ctx } = useTestApp(() => ({
    startJobs: true,
    webhooks: { ca: cert.cert },
    env: {
      ...HIGH_LIMITS,
      // Longer than the test: the hung attempts hold their slots throughout.
      WEBHOOK_TIMEOUT_MS: '60000',
      JOBS_POLL_INTERVAL_MS: '3600000',
      JOBS_DELIVERY_CONCURRENCY: '5',
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '4',
      SHUTDOWN_GRACE_MS: '500',
    },
  }));

  const deliveriesOfProfile = async (profileId: string) =>
    Number(
      rowsOf<{ n: string }>(
        await ctx.app.db.execute(
          sql`select count(*)::text as n from webhook_deliveries d join webhook_events e on e.id = d.event_id where e.profile_id = ${profileId}`,
        ),
      )[0]!.n,
    );

  const publishMany = (profileId: string, n: number) =>
    ctx.app.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await ctx.app.webhooks.publish(tx, { profileId, type: 'order.paid', data: { n: i } });
    });

  it('delivers another tenant at once while 50 deliveries wait for a receiver that never answers, four at a time', async () => {
    const slowTenant = await newProfile(ctx);
    await register(ctx, slowTenant, dead.url('/dead'));
    await publishMany(slowTenant, 50);
    // Measured once the 50 deliveries exist (fanned out); the fan-out queue itself is FIFO.
    await vi.waitFor(async () => expect(await deliveriesOfProfile(slowTenant)).toBe(50), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(dead.received).toHaveLength(4), { timeout: 20_000, interval: 10 });

    const otherTenant = await newProfile(ctx);
    await register(ctx, otherTenant, live.url('/live'));
    const started = performance.now();
    await publish(ctx, otherTenant);
    await vi.waitFor(() => expect(live.received).toHaveLength(1), { timeout: 10_000, interval: 5 });
    expect(performance.now() - started).toBeLessThan(2_000);
    // The dead endpoint still has only its four: the other 46 wait in the table, not in slots.
    expect(dead.received).toHaveLength(4);
  }, 60_000);

  it('reuses one kept-alive TLS connection for a run of deliveries to one receiver', async () => {
    const tenant = await newProfile(ctx);
    await register(ctx, tenant, live.url('/again'));
    const before = live.connections;
    for (let i = 0; i < 5; i++) {
      await publish(ctx, tenant);
      await vi.waitFor(() => expect(live.received.filter((r) => r.path === '/again')).toHaveLength(i + 1), {
        timeout: 10_000,
        interval: 5,
      });
    }
    // Five deliveries one after the other: the connection of the earlier test carries them all.
    expect(live.connections - before).toBe(0);
    expect(live.connections).toBe(1);
  }, 60_000);

  it('decides an identity verification while every delivery slot is held by dead endpoints', async () => {
    // A second dead endpoint takes the last delivery slot: the delivery lane is now full.
    const another = await newProfile(ctx);
    await register(ctx, another, deadToo.url('/dead-too'));
    await publishMany(another, 50);
    await vi.waitFor(() => expect(deadToo.received).toHaveLength(1), { timeout: 20_000, interval: 10 });

    const tenant = await identityTenant(ctx);
    const { id } = await captureAll(ctx, tenant.backend);
    const uploaded = performance.now();
    let status = 'processing';
    await vi.waitFor(
      async () => {
        status = (await api(ctx).call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status;
        expect(status).not.toBe('processing');
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(performance.now() - uploaded).toBeLessThan(5_000);
    expect(['approved', 'declined', 'manual_review']).toContain(status);
    expect(dead.received).toHaveLength(4);
    expect(deadToo.received).toHaveLength(1);
  }, 120_000);
});
