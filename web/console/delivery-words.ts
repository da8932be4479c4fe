/**
 * A webhook delivery as the operator reads it (docs/webhooks.md, "Receiving webhooks"): where it stands in
 * four words, and what its last attempt met in plain words. Pure, so it is tested without a
 * browser (test/web/delivery-words.test.ts).
 */

/** The delivery log's state (src/db/vocabulary.ts) with what the attempts so far tell. */
export interface DeliveryFacts {
  state: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

/**
 * pending: no attempt yet; failing: attempted, refused, and another attempt is due; delivered:
 * a 2xx came; gave_up: every attempt was refused and none is left (a redeliver adds one).
 */
export type DeliveryStatus = 'pending' | 'failing' | 'delivered' | 'gave_up';

export function deliveryStatus(d: DeliveryFacts): DeliveryStatus {
  if (d.state === 'succeeded') return 'delivered';
  if (d.state === 'failed') return 'gave_up';
  return d.attemptCount > 0 && (d.lastStatusCode !== null || d.lastError !== null) ? 'failing' : 'pending';
}

export const DELIVERY_STATUS_WORDS: Record<DeliveryStatus, string> = {
  pending: 'pending',
  failing: 'failing',
  delivered: 'delivered',
  gave_up: 'gave up',
};

/** Node's TLS and socket error codes (the transport keeps `<code>: <message>`) in words. */
const ERROR_WORDS: [code: string, words: string][] = [
  ['DEPTH_ZERO_SELF_SIGNED_CERT', 'the receiver’s certificate is self-signed: no trusted authority issued it'],
  ['SELF_SIGNED_CERT_IN_CHAIN', 'the receiver’s certificate chain ends in a self-signed certificate no one trusts'],
  ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'the receiver’s certificate cannot be checked: its chain is incomplete'],
  ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'the receiver’s certificate cannot be checked: its issuer is unknown'],
  ['CERT_HAS_EXPIRED', 'the receiver’s certificate has expired'],
  ['ERR_TLS_CERT_ALTNAME_INVALID', 'the receiver’s certificate is for another host name'],
  ['ECONNREFUSED', 'nothing accepts connections at that address (connection refused)'],
  ['ENOTFOUND', 'the host name does not exist (DNS)'],
  ['EAI_AGAIN', 'the host name could not be looked up just now (DNS)'],
  ['ECONNRESET', 'the receiver closed the connection before answering'],
  ['EHOSTUNREACH', 'the receiver’s network cannot be reached'],
  ['ETIMEDOUT', 'the connection timed out'],
];

/** What an HTTP status says to the sender of a webhook. */
function statusWords(code: number): string {
  if (code >= 200 && code < 300) return `accepted (HTTP ${code})`;
  if (code === 401 || code === 403)
    return `refused (HTTP ${code}): the receiver did not accept the request — check the signing secret it verifies with`;
  if (code === 404 || code === 410) return `no such address on the receiver (HTTP ${code})`;
  if (code === 413) return 'the receiver finds the body too large (HTTP 413)';
  if (code === 429) return 'the receiver asks to slow down (HTTP 429)';
  if (code >= 500) return `the receiver failed while handling it (HTTP ${code})`;
  if (code >= 300 && code < 400) return `the receiver redirects elsewhere (HTTP ${code}); redirects are not followed`;
  return `refused (HTTP ${code})`;
}

/** The last attempt's outcome in words; the code or message as sent stays beside it (the operator may search for it). */
export function attemptWords(statusCode: number | null, error: string | null): string | null {
  if (statusCode !== null) return statusWords(statusCode);
  if (error === null) return null;
  const known = ERROR_WORDS.find(([code]) => error.startsWith(`${code}:`) || error === code);
  if (known) return known[1];
  if (/^no answer within \d+ ms/.test(error))
    return `the receiver did not answer in time (${error.replace(/^no answer within /, 'waited ')})`;
  return error;
}
