import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { canonicalJson } from '../src/lib/canonical-json.js';

export interface Figure {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Requests answered with an unexpected status or not at all. */
  failures: number;
}

export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  /** A fresh path and query for each request (pages drawn at random, as people page); `url` is the first. */
  path?: () => string;
  /** A fresh JSON body for each request (records presented in turn). */
  nextBody?: () => unknown;
}

const jsonInit = (t: LoadTarget): RequestInit => ({
  method: t.method ?? 'GET',
  headers: { ...(t.body === undefined ? {} : { 'content-type': 'application/json' }), ...t.headers },
  ...(t.body === undefined ? {} : { body: JSON.stringify(t.body) }),
});

/** One request before the load: a route that does not exist yet is reported, not measured. */
export async function probe(t: LoadTarget): Promise<{ status: number; body: string }> {
  const res = await fetch(t.url, jsonInit(t));
  return { status: res.status, body: await res.text() };
}

/** Drives one route with autocannon over loopback. */
export async function drive(t: LoadTarget, durationS: number, connections: number): Promise<Figure> {
  const init = jsonInit(t);
  const result = await autocannon({
    url: t.url,
    method: init.method,
    headers: init.headers as Record<string, string>,
    ...(typeof init.body === 'string' ? { body: init.body } : {}),
    ...(t.path || t.nextBody
      ? {
          requests: [
            {
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                ...(t.path ? { path: t.path() } : {}),
                ...(t.nextBody ? { body: JSON.stringify(t.nextBody()) } : {}),
              }),
            },
          ],
        }
      : {}),
    connections,
    duration: durationS,
    timeout: 30,
  });
  return {
    // Only answers the route meant to give count: a 429 or 500 is fast and proves nothing.
    reqPerSec: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The floor for POST /v1/crypto/verify: canonicalize (RFC 8785) and check an Ed25519 signature
 * over a record of the same shape, in a plain loop in this process.
 */
export function bareVerifyLoop(record: Record<string, unknown>, durationS: number): Figure {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { signature: _drop, ...unsigned } = record;
  const signature = sign(null, Buffer.from(canonicalJson(unsigned)), privateKey).toString('base64url');
  const end = performance.now() + durationS * 1000;
  const latencies: number[] = [];
  while (performance.now() < end) {
    const started = performance.now();
    const { signature: sig, ...rest } = { ...unsigned, signature };
    const ok = verify(null, Buffer.from(canonicalJson(rest)), publicKey, Buffer.from(sig, 'base64url'));
    if (!ok) throw new Error('bare verify loop: signature did not verify');
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { reqPerSec: latencies.length / durationS, p50Ms: at(0.5), p99Ms: at(0.99), failures: 0 };
}

export function multipartBody(file: Buffer, boundary: string): Buffer {
  return Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="document.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

export interface UploadFigure {
  mbPerSec: number;
  uploads: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** One side of the upload comparison: where it uploads, and one upload's headers prepared outside the clock. */
export interface UploadSide {
  url: string;
  /** Headers for `count` uploads (fresh handoff tokens for the real route), made before a slice starts. */
  authorize(count: number): Promise<Record<string, string>[]>;
}

/** More uploads a second than loopback carries at 15 MB each (600 MB/s): a slice never runs out of headers. */
const UPLOADS_PER_SECOND_CEILING = 40;

/**
 * `concurrency` uploads always in flight (a finished one starts the next at once) to each side in turn,
 * `slices` alternating slices of `durationS / slices` seconds each, so both sides see the same
 * machine: on this shared 2-core machine the rate drifts by a third between two 10 s runs, more
 * than the 0.8 × target's margin. Rounds that waited for the slowest of ten measured its tail, not
 * the throughput. Each slice's uploads carry headers made before its clock starts.
 */
export async function driveUploadsInterleaved(
  sides: [UploadSide, UploadSide],
  body: Buffer,
  boundary: string,
  concurrency: number,
  durationS: number,
  slices = 4,
): Promise<[UploadFigure, UploadFigure]> {
  const runs = sides.map(() => ({ latencies: [] as number[], failures: 0, bytes: 0, elapsedMs: 0 }));
  const sliceMs = (durationS * 1000) / slices;
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, side] of sides.entries()) {
      const run = runs[i]!;
      const headers = await side.authorize(Math.ceil((sliceMs / 1000) * UPLOADS_PER_SECOND_CEILING) + concurrency);
      const started = performance.now();
      const deadline = started + sliceMs;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let h = headers.pop(); h && performance.now() < deadline; h = headers.pop()) {
            const t0 = performance.now();
            const res = await fetch(side.url, {
              method: 'POST',
              headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` },
              body,
            }).catch(() => undefined);
            await res?.arrayBuffer();
            if (!res || res.status >= 300) run.failures++;
            else run.bytes += body.length;
            run.latencies.push(performance.now() - t0);
          }
        }),
      );
      run.elapsedMs += performance.now() - started;
    }
  }
  return runs.map((run) => {
    const sorted = run.latencies.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
    return {
      mbPerSec: run.bytes / 1e6 / (run.elapsedMs / 1000),
      uploads: sorted.length,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      failures: run.failures,
    };
  }) as [UploadFigure, UploadFigure];
}
