import { describe, expect, it } from 'vitest';
import { attemptWords, deliveryStatus } from '../../web/console/delivery-words.js';

describe('a webhook delivery in words (pure)', () => {
  const facts = (
    state: 'pending' | 'succeeded' | 'failed',
    attemptCount: number,
    lastStatusCode: number | null,
    lastError: string | null,
  ) => ({
    state,
    attemptCount,
    lastStatusCode,
    lastError,
  });

  it('reads the log state and the attempts as pending, failing, delivered or gave up', () => {
    expect(deliveryStatus(facts('pending', 0, null, null))).toBe('pending');
    expect(deliveryStatus(facts('pending', 1, 503, null))).toBe('failing');
    expect(deliveryStatus(facts('pending', 2, null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9'))).toBe('failing');
    expect(deliveryStatus(facts('succeeded', 2, 200, null))).toBe('delivered');
    expect(deliveryStatus(facts('failed', 3, 500, null))).toBe('gave_up');
  });

  it('says what the last attempt met in plain words', () => {
    expect(attemptWords(null, 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate')).toBe(
      'the receiver’s certificate is self-signed: no trusted authority issued it',
    );
    expect(attemptWords(null, 'CERT_HAS_EXPIRED: certificate has expired')).toBe('the receiver’s certificate has expired');
    expect(attemptWords(null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9')).toBe(
      'nothing accepts connections at that address (connection refused)',
    );
    expect(attemptWords(null, 'no answer within 10000 ms')).toBe('the receiver did not answer in time (waited 10000 ms)');
    expect(attemptWords(401, null)).toMatch(/^refused \(HTTP 401\): .*signing secret/);
    expect(attemptWords(503, null)).toBe('the receiver failed while handling it (HTTP 503)');
    expect(attemptWords(404, null)).toBe('no such address on the receiver (HTTP 404)');
    expect(attemptWords(204, null)).toBe('accepted (HTTP 204)');
    // Something unknown stays as the transport wrote it; no attempt yet is nothing.
    expect(attemptWords(null, 'EWEIRD: something else')).toBe('EWEIRD: something else');
    expect(attemptWords(null, null)).toBeNull();
  });
});
