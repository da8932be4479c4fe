import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { makeCertificate, startReceiver, type Receiver } from '../helpers/receivers.js';
import { newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';

describe.runIf(process.env.DATABASE_URL)('two dispatcher instances on one PostgreSQL', () => {
  let a: TestContext;
  let b: TestContext;
  let receiver: Receiver;
  beforeAll(async () => {
    const cert = await makeCertificate();
    receiver = await startReceiver(cert);
    a = await buildTestApp({ env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS }, webhooks: { ca: cert.cert } });
    b = await buildTestApp({ shareWith: a, clock: a.clock, webhooks: { ca: cert.cert } });
  });
  afterAll(async () => {
    await b?.app.close();
    await a?.close();
    await receiver?.close();
  });

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
