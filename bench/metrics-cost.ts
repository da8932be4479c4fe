/**
 * `npm run bench:metrics`: what the metrics cost a request, measured in-process so that a busy
 * machine's noise falls on both sides alike. Two apps on in-memory PGlite, one with METRICS_TOKEN
 * and one without, answer the same requests by `inject` (no sockets) in alternating rounds;
 * then a scrape of /metrics is timed, and the one thing a request adds, recording its duration,
 * alone in a loop. Prints the medians of the rounds.
 */
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { createMetrics } from '../src/metrics/registry.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 5000);
const TOKEN = 'bench-metrics-token-0123456789';

const env = { DATABASE_URL: 'memory://', FACE_CHECKS: 'off', LOG_LEVEL: 'silent', ADMIN_TOKEN: 'bench-admin-token-0123456789' };
const off = await buildApp(configFrom(env), { startJobs: false, logger: false });
const on = await buildApp(configFrom({ ...env, METRICS_TOKEN: TOKEN }), { startJobs: false, logger: false });
await Promise.all([off.ready(), on.ready()]);

// The liveness route, and a route pattern with a parameter (answered 401 by the ticketing API's auth hook: no key).
const paths = ['/health', '/api/v1/events/6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f'];
async function round(app: typeof on): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < PER_ROUND; i++) await app.inject({ method: 'GET', url: paths[i % paths.length]! });
  return Number(process.hrtime.bigint() - start) / 1000 / PER_ROUND;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await round(off);
await round(on);
const us = { off: [] as number[], on: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  // Alternating which side goes first, so a drift of the machine's load does not favour one.
  for (const side of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const))
    us[side].push(await round(side === 'on' ? on : off));
}
const scrapes: number[] = [];
let bytes = 0;
for (let i = 0; i < 20; i++) {
  const start = process.hrtime.bigint();
  const res = await on.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  scrapes.push(Number(process.hrtime.bigint() - start) / 1e6);
  bytes = res.body.length;
}
// What the timing hook does per request, alone: one observation by (method, status, route).
const alone = createMetrics({ db: on.db, clock: on.clock, logger: on.log, pools: {}, pingDatabase: async () => {} });
const observations: number[] = [];
for (let r = 0; r < 5; r++) {
  const n = 200_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) alone.observeRequest('GET', i % 2 ? '/health' : '/api/v1/events/:id', i % 2 ? 200 : 401, (i % 50) / 10_000);
  observations.push(Number(process.hrtime.bigint() - start) / n);
}
console.log(`one request's observation alone: median ${median(observations).toFixed(0)} ns`);
console.log(`requests by inject, ${ROUNDS} alternating rounds of ${PER_ROUND}, median µs per request:`);
console.log(
  `  metrics off: ${median(us.off).toFixed(1)} µs   metrics on: ${median(us.on).toFixed(1)} µs   on/off: ${(median(us.on) / median(us.off)).toFixed(3)}`,
);
console.log(`scrape of /metrics (PGlite, table gauges included): median ${median(scrapes).toFixed(1)} ms, ${bytes} bytes`);
await Promise.all([off.close(), on.close()]);
