import { createHash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** URL-safe base64 without padding of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Random bytes served from a pool filled by the CSPRNG 4 KiB at a time, each byte handed out
 * once (what node:crypto's randomUUID does for its UUIDs). One randomFillSync per sealed record's
 * nonce was 3 % of the decide route's thread (bench/profiles/decide-server.md).
 */
const pool = Buffer.alloc(4096);
let poolUsed = pool.length;

/** Lowercase hex of `bytes` (at most 4,096) random bytes, from the pool. */
export function randomHex(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomHex serves at most ${pool.length} bytes`);
  if (poolUsed + bytes > pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const hex = pool.toString('hex', poolUsed, poolUsed + bytes);
  poolUsed += bytes;
  return hex;
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
