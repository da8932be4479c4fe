import { Agent, request, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ExcerptCollector, type ResponseExcerpt } from './response-excerpt.js';
import type { CheckedTarget } from './ssrf.js';

export interface SendOptions {
  timeoutMs: number;
  /** Extra trusted certificate authorities (tests' self-signed receivers); the system store otherwise. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Keep-alive connections to reuse; a fresh connection per request without it. */
  connections?: ConnectionPool;
}

/** What one attempt got: a status code with the start of the body, or the reason there was none. */
export interface SendResult {
  statusCode?: number;
  /** The start of the answer's body (src/webhooks/response-excerpt.ts), with the status code. */
  response?: ResponseExcerpt;
  error?: string;
  /** No answer at all (timeout, refused or broken connection), as opposed to an error status or a refusal before sending. */
  unanswered?: boolean;
  /** Until the status line came (or the attempt ended without one). */
  durationMs: number;
}

/** An answer's body is read (so the connection can be reused) only up to this size and time. */
const BODY_LIMIT_BYTES = 64 * 1024;
const BODY_TIMEOUT_MS = 2_000;
/** A pool unused this long is closed with its idle connections. */
const POOL_IDLE_MS = 5 * 60_000;

/**
 * Keep-alive connections per checked address. A pool belongs to one (host name, port, address):
 * a request only ever reuses a connection made to the very address the SSRF guard approved for
 * that request, and the TLS session was verified for that host name.
 */
export interface ConnectionPool {
  agentFor(target: CheckedTarget): Agent;
  /** Connections opened since the pool was made (tests and the bench read it). */
  readonly opened: number;
  close(): void;
}

export function createConnectionPool(opts: { ca?: SendOptions['ca']; maxSocketsPerAddress?: number } = {}): ConnectionPool {
  const agents = new Map<string, { agent: Agent; usedAt: number }>();
  let opened = 0;
  const sweep = (now: number) => {
    for (const [key, entry] of agents) {
      if (now - entry.usedAt > POOL_IDLE_MS) {
        entry.agent.destroy();
        agents.delete(key);
      }
    }
  };
  return {
    agentFor(target) {
      const key = `${target.hostname}|${target.url.port || 443}|${target.address}`;
      const now = performance.now();
      let entry = agents.get(key);
      if (!entry) {
        sweep(now);
        const agent = new Agent({
          keepAlive: true,
          maxSockets: opts.maxSocketsPerAddress ?? 16,
          // Pinning for every connection this agent makes: whatever the host name, the socket
          // goes to the approved address.
          lookup: pinnedLookup(target),
          ca: opts.ca,
          scheduling: 'lifo',
        });
        const create = agent.createConnection.bind(agent);
        agent.createConnection = ((...args: Parameters<typeof create>) => {
          opened += 1;
          return create(...args);
        }) as typeof agent.createConnection;
        entry = { agent, usedAt: now };
        agents.set(key, entry);
      }
      entry.usedAt = now;
      return entry.agent;
    },
    get opened() {
      return opened;
    },
    close() {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * POSTs the body to the checked address. Redirects are not followed (a 3xx is just a failed
 * attempt), and the whole exchange up to the status line must fit in the timeout; the excerpt of
 * the answer's body is what of its first bytes arrived within that timeout too.
 */
export async function postWebhook(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  opts: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const first = await attempt(target, headers, body, opts, started);
  // A kept-alive connection the receiver closed while idle fails before it carries the request;
  // that is not the receiver's answer, so the request goes once more on a new connection.
  if (first === 'stale') return (await attempt(target, headers, body, { ...opts, fresh: true }, started)) as SendResult;
  return first;
}

function attempt(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  opts: SendOptions & { fresh?: boolean },
  started: number,
): Promise<SendResult | 'stale'> {
  const elapsed = () => Math.round(performance.now() - started);
  const remaining = Math.max(1, opts.timeoutMs - (performance.now() - started));
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Omit<SendResult, 'durationMs'>, durationMs = elapsed()) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs });
    };
    const options: RequestOptions = {
      method: 'POST',
      host: target.hostname,
      port: target.url.port || 443,
      path: `${target.url.pathname}${target.url.search}`,
      servername: isIP(target.hostname) ? undefined : target.hostname,
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target),
      agent: opts.connections && !opts.fresh ? opts.connections.agentFor(target) : false,
      ca: opts.ca,
    };
    const req = request(options);
    /**
     * Ends the attempt early (the timeout, a broken connection): before the status line as no
     * answer; after it, with the status and the excerpt of the body so far.
     */
    let cutShort = (error: string) => settle({ error, unanswered: true });
    let responded = false;
    const timer = setTimeout(() => {
      cutShort(`no answer within ${opts.timeoutMs} ms`);
      req.destroy();
    }, remaining);
    req.on('response', (res) => {
      responded = true;
      const statusCode = res.statusCode;
      const durationMs = elapsed();
      const excerpt = new ExcerptCollector();
      const answered = (ended: boolean) => {
        if (settled) return;
        settle({ statusCode, response: excerpt.result(ended) }, durationMs);
        // Without a pool the connection is not reused: the rest of the body is not read.
        if (!opts.connections) res.destroy();
      };
      cutShort = () => answered(false);
      // Past the excerpt the body is of no interest, but reading it to the end returns the
      // connection to the pool; a large or slow one is cut off instead of holding the connection.
      let size = 0;
      const cut = setTimeout(() => res.destroy(), BODY_TIMEOUT_MS);
      cut.unref();
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!settled && excerpt.add(chunk)) answered(false);
        if (size > BODY_LIMIT_BYTES) res.destroy();
      });
      res.on('end', () => answered(true));
      res.on('close', () => {
        clearTimeout(cut);
        answered(false);
      });
      res.on('error', () => {});
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!settled && !responded && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        settled = true;
        clearTimeout(timer);
        resolve('stale');
        return;
      }
      cutShort(describe(err));
    });
    req.end(body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  const code = err.code ? `${err.code}: ` : '';
  return `${code}${err.message}`.slice(0, 500);
}
