// Standalone on purpose: receivers import this file from the package, so it depends on node: only.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyOptions {
  /** How far (seconds) the signed timestamp may lie from now, in either direction. */
  toleranceSec: number;
  /** Unix seconds to compare against; defaults to the current time. */
  now?: number;
}

export type VerifyResult =
  { ok: true; timestamp: number } | { ok: false; reason: 'MALFORMED_HEADER' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'NO_MATCHING_SIGNATURE' };

/** The lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with `secret`. */
export function computeServiceSignature(secret: string, timestampSec: number, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex');
}

/** Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; unknown schemes are ignored. */
export function parseServiceSignature(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

/**
 * Checks a `Service-Signature` header against the raw request body (the bytes as received,
 * before any JSON parsing) and the endpoint's secrets (several during a rotation). Compares in
 * constant time and refuses timestamps older or newer than the tolerance (replays).
 */
export function verifyServiceSignature(
  rawBody: string | Uint8Array,
  header: string | undefined | null,
  secrets: string | string[],
  options: VerifyOptions,
): VerifyResult {
  const parsed = header ? parseServiceSignature(header) : undefined;
  if (!parsed) return { ok: false, reason: 'MALFORMED_HEADER' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > options.toleranceSec) return { ok: false, reason: 'TIMESTAMP_OUT_OF_TOLERANCE' };
  let matched = false;
  for (const secret of Array.isArray(secrets) ? secrets : [secrets]) {
    const expected = Buffer.from(computeServiceSignature(secret, parsed.timestamp, rawBody), 'hex');
    for (const candidate of parsed.signatures) {
      // Every pair is compared, so the time taken does not tell which secret or signature matched.
      if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
    }
  }
  return matched ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'NO_MATCHING_SIGNATURE' };
}
