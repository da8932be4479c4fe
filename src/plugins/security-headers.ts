import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/** CSP directives by name, each a list of sources. */
type CspDirectives = Record<string, readonly string[]>;

/**
 * The policy every response carries: everything from this origin only, no inline script, no
 * plugins, never framed. /docs (swagger-ui) runs under it as is: its scripts, styles and
 * initializer are files of this origin, its icons are data: images.
 */
const BASE_CSP: CspDirectives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * BASE_CSP with sources added per directive, for pages that need more (the capture page shows
 * camera frames: `cspDirectives({ 'img-src': ['blob:'], 'media-src': ["'self'", 'blob:'] })`).
 * Sources are added, never removed: `frame-ancestors 'none'` and the script rules stay.
 */
export function cspDirectives(extra: CspDirectives = {}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, sources] of Object.entries(BASE_CSP)) out[name] = [...sources];
  for (const [name, sources] of Object.entries(extra)) out[name] = [...new Set([...(out[name] ?? []), ...sources])];
  return out;
}

/** The header value of a policy: `contentSecurityPolicy(extra)` = BASE_CSP plus `extra`, serialized. */
export function contentSecurityPolicy(extra: CspDirectives = {}): string {
  return Object.entries(cspDirectives(extra))
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * The headers helmet sets for this configuration, found once by running its middleware against
 * a response that only records them. Helmet writes the same headers on every response; run per
 * request (as @fastify/helmet does, building helmet again each time) it was 5.6 % of the
 * server's busy time on the single-event read (`BENCH_ONLY=event BENCH_CPU_PROF=… npm run bench`,
 * docs/benchmarks.md, Benchmark).
 */
function helmetHeaders(): Record<string, string> {
  // A response that is never sent: helmet only calls setHeader and removeHeader on it.
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  let failed: unknown;
  helmet({
    // Served over plain HTTP in development: no upgrade-insecure-requests (it would break /docs on http://<lan-ip>).
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives() },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  })(req, res, (err?: unknown) => {
    failed = err;
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (failed) throw failed;
  return headers;
}

/**
 * Security headers on every response (JSON, /docs, /openapi.json, errors, 404s), set in an
 * onRequest hook so even an answer from a hook or the error handler carries them:
 * `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` with CSP `frame-ancestors 'none'`,
 * `Referrer-Policy: no-referrer`, and the CSP above, with the rest of helmet's defaults. A
 * route that serves a page needing more sets its own header with
 * `reply.header('content-security-policy', contentSecurityPolicy({...}))`.
 */
export async function securityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
