import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

// canonicalize ships CommonJS whose default export the ESM types do not see.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (input: unknown) => string | undefined;

/** How long a key keeps its first answer (docs/idempotency.md, "Idempotency-Key"). */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a request holding a key may run before another request with that key may take it
 * over: only a process that died mid-request (or a handler that never answers) leaves a key
 * this long without an answer; every answer the process gives stores or releases it at once.
 */
export const KEY_LEASE_MS = 60_000;

export const KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** The key of a request header, or why it is refused. */
export function parseIdempotencyKey(value: string | string[]): { key: string } | { refused: string } {
  const key = Array.isArray(value) ? value.join(', ') : value;
  return PRINTABLE_ASCII.test(key) ? { key } : { refused: 'Idempotency-Key must be 1 to 255 printable ASCII characters' };
}

/**
 * What "the same request" means for a key: the same query and body. A JSON body counts by its
 * canonical form (RFC 8785), so a retry that serializes the same values with other spacing or key
 * order is the same request; any other body counts byte for byte.
 */
export function requestFingerprint(query: string, body: Buffer): string {
  const hash = createHash('sha256').update(query).update('\n');
  let canonical: string | undefined;
  try {
    canonical = body.length > 0 ? canonicalize(JSON.parse(body.toString('utf8'))) : undefined;
  } catch {
    canonical = undefined;
  }
  if (canonical !== undefined) hash.update('json\n').update(canonical);
  else hash.update('bytes\n').update(body);
  return hash.digest('hex');
}

/**
 * Answers a key keeps: successes and the client's own mistakes, which a retry would only repeat.
 * Not 401, 403 and 429, which depend on the key, its grants and the moment rather than on the
 * request; not 5xx, so the client may retry a failure of the server.
 */
export function isKeptAnswer(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429;
}
