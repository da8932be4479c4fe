import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { deliveriesOf, later, newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';

/**
 * The delivery detail keeps the start of each answer's body (docs/webhooks.md, "Receiving webhooks"): what a
 * receiver said when it refused, bounded at 1 KiB so a receiver cannot fill the database.
 */
describe("webhook delivery detail: the start of the receiver's answer body, from a real HTTPS receiver", () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx } = useTestApp(() => ({
    env: { WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS, WEBHOOK_TIMEOUT_MS: '1500' },
    webhooks: { ca: cert.cert },
  }));

  /** One event to a fresh endpoint at `path`, its first attempt made; the delivery's detail. */
  async function firstAttempt(path: string) {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, receiver.url(path));
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [listed] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    const detail = async () => (await ctx.admin('GET', `/webhook-deliveries/${listed.id}`, undefined, 200)).data;
    return { endpoint, listed, detail };
  }

  /** What the table holds for the delivery's attempts, straight from the database. */
  async function storedBodies(deliveryId: string) {
    return rowsOf<{ attempt: number; chars: number | null; bytes: number | null; truncated: boolean }>(
      await ctx.app.db.execute(sql`select attempt, char_length(response_body) as chars, octet_length(response_body) as bytes,
        response_body_truncated as truncated from webhook_attempts where delivery_id = ${deliveryId} order by attempt`),
    ).map((r) => ({ ...r, chars: r.chars === null ? null : Number(r.chars), bytes: r.bytes === null ? null : Number(r.bytes) }));
  }

  it("shows why a receiver refused, then its 2xx answer's body, per attempt; the log leaves the bodies out", async () => {
    receiver.plan({ status: 401, body: '{"error":"signature did not verify"}' });
    const { endpoint, listed, detail } = await firstAttempt('/refusing');
    let d = await detail();
    expect(d).toMatchObject({ state: 'pending', lastStatusCode: 401, nextAttemptAt: expect.any(String) });
    expect(d.attempts).toEqual([
      {
        attempt: 1,
        at: expect.any(String),
        statusCode: 401,
        durationMs: expect.any(Number),
        error: 'answered 401',
        responseBody: '{"error":"signature did not verify"}',
        responseBodyTruncated: false,
      },
    ]);
    await later(ctx, 1200);
    d = await detail();
    expect(d.state).toBe('succeeded');
    expect(d.attempts.map((a: { statusCode: number; responseBody: string }) => [a.statusCode, a.responseBody])).toEqual([
      [401, '{"error":"signature did not verify"}'],
      [200, 'ok'],
    ]);
    // The list stays as it was: status, duration and error per attempt, no bodies.
    const [again] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(again.id).toBe(listed.id);
    for (const a of again.attempts) expect(Object.keys(a).sort()).toEqual(['at', 'attempt', 'durationMs', 'error', 'statusCode']);
    // Nothing of the request's signature or the endpoint's secret is kept with the answer.
    const sent = receiver.received.filter((r) => r.path === '/refusing');
    expect(sent).toHaveLength(2);
    const text = JSON.stringify(d);
    expect(text).not.toContain(endpoint.secret);
    for (const r of sent) expect(text).not.toContain((r.headers['service-signature'] as string).split('v1=')[1]);
  });

  it('keeps only the first 1 KiB of a 200 KiB answer, as text, and says it went on', async () => {
    const huge = 'x'.repeat(1001) + 'é'.repeat(100_000);
    receiver.plan({ status: 500, body: huge });
    const { listed, detail } = await firstAttempt('/huge');
    const [attempt] = (await detail()).attempts;
    // 1001 one-byte characters, then two-byte ones: the 1024th byte is the first half of the 12th, which is left out.
    expect(attempt).toMatchObject({ statusCode: 500, responseBody: 'x'.repeat(1001) + 'é'.repeat(11), responseBodyTruncated: true });
    expect(await storedBodies(listed.id)).toEqual([{ attempt: 1, chars: 1012, bytes: 1023, truncated: true }]);
  });

  it('stores a body with NUL and bytes that are not UTF-8 (PostgreSQL text holds neither) as U+FFFD', async () => {
    receiver.plan({ status: 400, body: Buffer.from([0x62, 0x61, 0x64, 0x00, 0xff, 0x21]) });
    const { detail } = await firstAttempt('/binary');
    expect((await detail()).attempts[0]).toMatchObject({ statusCode: 400, responseBody: 'bad\uFFFD\uFFFD!', responseBodyTruncated: false });
  });

  it('keeps what arrived of a body that stops coming, within the timeout, with the status', async () => {
    receiver.plan({ status: 503, body: 'overloaded, retry la', open: true });
    const { listed, detail } = await firstAttempt('/stalling');
    const d = await detail();
    expect(d.attempts[0]).toMatchObject({
      statusCode: 503,
      error: 'answered 503',
      responseBody: 'overloaded, retry la',
      responseBodyTruncated: true,
    });
    // The duration is until the status line, not until the timeout cut the body off.
    expect(d.attempts[0].durationMs).toBeLessThan(1500);
    expect(await storedBodies(listed.id)).toEqual([{ attempt: 1, chars: 20, bytes: 20, truncated: true }]);
  });

  it('keeps no body when no answer came, and an empty one as empty', async () => {
    receiver.plan('hang');
    const hung = await firstAttempt('/silent');
    expect((await hung.detail()).attempts[0]).toMatchObject({
      statusCode: null,
      error: 'no answer within 1500 ms',
      responseBody: null,
      responseBodyTruncated: false,
    });
    receiver.plan({ status: 204, body: '' });
    const empty = await firstAttempt('/empty');
    expect((await empty.detail()).attempts[0]).toMatchObject({ statusCode: 204, responseBody: '', responseBodyTruncated: false });
  });
});
