import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { effectivePolicy, retryDelayMs, defaultDelaysMs } from '../../src/webhooks/policy.js';
import { serviceHmacSigner } from '../../src/webhooks/signers.js';
import { parseServiceSignature, verifyServiceSignature } from '../../src/webhooks/verify.js';

const stripe = new Stripe('sk_test_unused');
const body = JSON.stringify({ id: 'e1', type: 'order.paid', created: '2026-11-22T12:00:00.000Z', data: { ü: 'ß' } });
const t = 1_795_000_000;

describe('the Service-Signature scheme', () => {
  it('signs HMAC-SHA256 over "<t>.<raw body>" as lowercase hex, one v1= per live secret', () => {
    const header = serviceHmacSigner.sign({ eventId: 'e1', timestampSec: t, body, secrets: ['whsec_new', 'whsec_old'] })[
      'Service-Signature'
    ]!;
    const hex = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${hex('whsec_new')},v1=${hex('whsec_old')}`);
    // stripe-node, an independent implementation of the same scheme, accepts either secret.
    for (const secret of ['whsec_new', 'whsec_old']) {
      expect(stripe.webhooks.constructEvent(body, header, secret, 300, undefined, t * 1000)).toMatchObject({ id: 'e1' });
    }
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_other', 300, undefined, t * 1000)).toThrow();
    expect(() => serviceHmacSigner.sign({ eventId: 'e1', timestampSec: t, body, secrets: [] })).toThrow();
  });

  it('verifies with any live secret and refuses tampering, wrong secrets and stale or future timestamps', () => {
    const header = serviceHmacSigner.sign({ eventId: 'e1', timestampSec: t, body, secrets: ['s1'] })['Service-Signature']!;
    expect(verifyServiceSignature(body, header, ['s0', 's1'], { toleranceSec: 300, now: t + 10 })).toEqual({ ok: true, timestamp: t });
    expect(verifyServiceSignature(Buffer.from(body), header, 's1', { toleranceSec: 300, now: t })).toEqual({ ok: true, timestamp: t });
    expect(verifyServiceSignature(body + ' ', header, 's1', { toleranceSec: 300, now: t })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
    expect(verifyServiceSignature(body, header, ['s2'], { toleranceSec: 300, now: t })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
    expect(verifyServiceSignature(body, header, 's1', { toleranceSec: 300, now: t + 301 })).toEqual({
      ok: false,
      reason: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    expect(verifyServiceSignature(body, header, 's1', { toleranceSec: 300, now: t - 301 })).toEqual({
      ok: false,
      reason: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    // A signature replayed with a fresh timestamp does not match: t is inside the signed text.
    const moved = header.replace(`t=${t}`, `t=${t + 5}`);
    expect(verifyServiceSignature(body, moved, 's1', { toleranceSec: 300, now: t })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
  });

  it('refuses malformed headers', () => {
    for (const header of [undefined, '', 't=abc,v1=00', `v1=${'a'.repeat(64)}`, `t=${t}`, `t=${t},v1=XYZ`, `t=${t},v0=${'a'.repeat(64)}`]) {
      expect(verifyServiceSignature(body, header, 's1', { toleranceSec: 300, now: t })).toEqual({ ok: false, reason: 'MALFORMED_HEADER' });
    }
    expect(parseServiceSignature(`t=${t}, v1=${'a'.repeat(64)},v2=zz`)).toEqual({ timestamp: t, signatures: ['a'.repeat(64)] });
  });
});

describe('retry schedules', () => {
  it('tries 8 times over about a day by default', () => {
    const total = defaultDelaysMs.reduce((a, b) => a + b, 0);
    expect(defaultDelaysMs).toHaveLength(7);
    expect(total).toBeGreaterThan(22 * 3600_000);
    expect(total * 1.2).toBeLessThan(30 * 3600_000);
    for (let i = 1; i < defaultDelaysMs.length; i++) expect(defaultDelaysMs[i]!).toBeGreaterThanOrEqual(defaultDelaysMs[i - 1]!);
  });

  it('lets WEBHOOK_RETRY_DELAYS_MS override every schedule, keeping its attempts where the list is long enough', () => {
    const identity = { delaysMs: [60_000, 300_000], timeoutMs: 10_000 };
    const ticketing = { delaysMs: defaultDelaysMs, timeoutMs: 10_000 };
    const settings = { overrideDelaysMs: [10, 20, 30], timeoutMs: 10_000 };
    expect(effectivePolicy(identity, settings)).toEqual({ delaysMs: [10, 20], timeoutMs: 10_000 });
    expect(effectivePolicy(ticketing, settings).delaysMs).toEqual([10, 20, 30]);
    expect(effectivePolicy(identity, { timeoutMs: 10_000 })).toEqual(identity);
    expect(effectivePolicy(identity, { timeoutMs: 250 }).timeoutMs).toBe(250);
  });

  it('adds up to 20 % jitter and stops after the last delay', () => {
    const policy = { delaysMs: [1000, 2000], timeoutMs: 1 };
    expect(retryDelayMs(policy, 1, () => 0)).toBe(1000);
    expect(retryDelayMs(policy, 2, () => 0.999)).toBe(2400);
    expect(retryDelayMs(policy, 3, () => 0.5)).toBeUndefined();
  });
});
