import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './address.js';

/** Resolves a host name to its addresses (injectable so tests can play DNS). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** A URL a webhook may not be sent to; the message is safe to show to the operator. */
export class WebhookTargetError extends Error {}

/** A URL that passed the guard, with the one address the request must connect to. */
export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets (TLS checks the certificate against it). */
  hostname: string;
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: skip the address check (local testing only). */
  allowPrivate: boolean;
  resolve: Resolver;
}

/** Checks the shape of a webhook URL without DNS: https, a host, no credentials. */
export function parseTargetUrl(raw: string): URL {
  // The URL parser would percent-encode these silently; in a webhook URL they are a template
  // placeholder left in (`https://example.com/<your-id>`), not an address anyone serves.
  if (/[\s<>"{}|\\^`]/.test(raw))
    throw new WebhookTargetError('must not contain spaces or any of < > " { } | \\ ^ ` (a placeholder left in?)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw new WebhookTargetError('must be an https:// URL');
  if (url.username || url.password) throw new WebhookTargetError('must not carry credentials');
  if (!url.hostname) throw new WebhookTargetError('must name a host');
  return url;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is not public, so a name
 * that points at both a public and an internal address is refused too. The caller connects
 * to the returned address (no second DNS answer can move the request elsewhere).
 */
export async function checkTarget(raw: string, opts: GuardOptions): Promise<CheckedTarget> {
  const url = parseTargetUrl(raw);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await opts.resolve(hostname);
    } catch {
      throw new WebhookTargetError(`host ${hostname} could not be resolved`);
    }
    if (addresses.length === 0) throw new WebhookTargetError(`host ${hostname} could not be resolved`);
  }
  if (!opts.allowPrivate) {
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.allowed)
        throw new WebhookTargetError(`resolves to ${address}, a ${verdict.reason} address; webhooks only go to public addresses`);
    }
  }
  const chosen = addresses[0]!;
  return { url, hostname, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
