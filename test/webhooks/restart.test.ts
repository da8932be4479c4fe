import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { buildTestApp, usingPostgres } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { deliveriesOf, later, newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';

describe('a server restart mid-schedule still delivers', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const env = {
    WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS,
    // On PGlite the store must outlive the process: a file-backed data directory instead of memory://.
    ...(usingPostgres() ? {} : { DATABASE_URL: '' }),
  };
  const { ctx: first } = useTestApp(() => ({ env, webhooks: { ca: cert.cert } }));

  it('resumes pending retries, unsent fan-outs and interrupted attempts in a new process', async () => {
    const profileId = await newProfile(first);
    const endpoint = await register(first, profileId, receiver.url('/restart'));
    receiver.plan(500);
    const retried = await publish(first, profileId, 'order.paid');
    await first.app.jobs.drain();
    expect(receiver.received).toHaveLength(1);
    // Written but never fanned out before the process stops.
    const unsent = await publish(first, profileId, 'order.refunded');
    await first.app.close();

    const second = await buildTestApp({ shareWith: first, env, clock: new ManualClock(first.clock.now()), webhooks: { ca: cert.cert } });
    try {
      await second.app.jobs.drain();
      expect(receiver.received.map((r) => r.headers['service-event-id'])).toEqual([retried.id, unsent.id]);
      await later(second, 1200);
      expect(receiver.received.map((r) => [r.headers['service-event-id'], r.headers['service-delivery-attempt']])).toEqual([
        [retried.id, '1'],
        [unsent.id, '1'],
        [retried.id, '2'],
      ]);
      const log = await deliveriesOf(second, `endpointId=${endpoint.id}`);
      expect(log.map((d) => d.state)).toEqual(['succeeded', 'succeeded']);

      // A process that died during an attempt: its job is running with a lapsed lease and the
      // attempt has no answer. The next process takes the job over and delivers.
      const crashed = await publish(second, profileId, 'ticket.checked_in');
      await second.app.jobs.drain();
      const [delivery] = await deliveriesOf(second, `eventId=${crashed.id}`);
      await second.app.db.execute(
        sql`update webhook_deliveries set state = 'pending', attempts = 1, max_attempts = 1 where id = ${delivery.id}`,
      );
      await second.app.db.execute(
        sql`update webhook_attempts set status_code = null, error = 'no answer recorded: the process stopped during this attempt' where delivery_id = ${delivery.id}`,
      );
      await second.app.db.execute(
        sql`update jobs set state = 'running', locked_until = ${new Date(second.clock.now().getTime() + 60_000).toISOString()} where id = (select job_id from webhook_deliveries where id = ${delivery.id})`,
      );
      await second.app.jobs.drain();
      expect(receiver.received.filter((r) => r.headers['service-event-id'] === crashed.id)).toHaveLength(1);
      await later(second, 61_000);
      const resent = receiver.received.filter((r) => r.headers['service-event-id'] === crashed.id);
      expect(resent.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2']);
      const [after] = await deliveriesOf(second, `eventId=${crashed.id}`);
      expect(after).toMatchObject({ state: 'succeeded', attemptCount: 2, maxAttempts: 2 });
      expect(after.attempts[0].error).toMatch(/process stopped/);
    } finally {
      await second.app.close();
    }
  });
});
