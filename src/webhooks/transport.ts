import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CheckedTarget } from './ssrf.js';

export interface SendOptions {
  timeoutMs: number;
  /** Extra trusted certificate authorities (tests' self-signed receivers); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
}

/** What one attempt got: a status code, or the reason there was none. */
export interface SendResult {
  statusCode?: number;
  error?: string;
  durationMs: number;
}

/**
 * POSTs the body to the checked address. Redirects are not followed (a 3xx is just a failed
 * attempt), and the whole exchange up to the status line must fit in the timeout.
 */
export function postWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Pinning: whatever the host name, the socket goes to the address the guard approved.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = request({
      method: 'POST',
      host: target.hostname,
      port: target.url.port || 443,
      path: `${target.url.pathname}${target.url.search}`,
      servername: isIP(target.hostname) ? undefined : target.hostname,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinned,
      agent: false,
      ca: opts.ca,
    });
    const timer = setTimeout(() => {
      settle({ error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('response', (res) => {
      settle({ statusCode: res.statusCode });
      // The answer's body is of no interest; don't let a slow one hold the socket.
      res.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => settle({ error: describe(err) }));
    req.end(body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  const code = err.code ? `${err.code}: ` : '';
  return `${code}${err.message}`.slice(0, 500);
}
