import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';

describe.runIf(process.env.DATABASE_URL)('two dispatcher instances on one PostgreSQL', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx: a } = useTestApp(() => ({ env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS }, webhooks: { ca: cert.cert } }));
  const { ctx: b } = useTestApp(() => ({ shareWith: a, clock: a.clock, webhooks: { ca: cert.cert } }));

  it('deliver each attempt exactly once while both drain the same queue', async () => {
    const profileId = await newProfile(a);
    await register(a, profileId, receiver.url('/shared'));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await publish(i % 2 ? a : b, profileId, 'order.paid', { n: i })).id);
    receiver.plan(500, 500, 500);
    await Promise.all([a.app.jobs.drain(), b.app.jobs.drain(), a.app.jobs.drain(), b.app.jobs.drain()]);
    a.clock.advance(1200);
    await Promise.all([a.app.jobs.drain(), b.app.jobs.drain(), a.app.jobs.drain(), b.app.jobs.drain()]);
    const seen = receiver.received.map((r) => `${r.headers['service-event-id']}#${r.headers['service-delivery-attempt']}`);
    expect(seen).toHaveLength(15);
    expect(new Set(seen).size).toBe(15);
    expect(new Set(receiver.received.map((r) => r.headers['service-event-id']))).toEqual(new Set(ids));
    expect(seen.filter((s) => s.endsWith('#2'))).toHaveLength(3);
  });
});
