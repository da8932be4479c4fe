// `npm run bench:capacity`: what one core does (issue 45, "capacity per core"), on PostgreSQL
// (DATABASE_URL) with the roles of docs/operations.md "Roles: API and worker instances":
// - partner requests per second: an API instance (ROLE=api) pinned to one core (`taskset -c`),
//   driven from this process with CAPACITY_CONNECTIONS connections for CAPACITY_DURATION_S per route;
// - verifications decided per hour: a worker instance (ROLE=worker) with face checks and document
//   reading on, pinned to one core, deciding CAPACITY_VERIFICATIONS verifications (an ID card's
//   front and back and 3–5 selfie frames each) whose last frames are sent at once through the API
//   instance; the rate is that count over the time from the first last frame to the last decision.
// PostgreSQL and this process run unpinned: on a 2-core machine they share the other core, so the
// figures are a floor for a machine where the database has cores of its own.
// Writes bench/capacity-results.md.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { drive, type LoadTarget } from './load.js';
import { startChild, type Child } from './processes.js';
import { createStore, newEvent, seed } from './seed.js';
import { verificationDriver } from './verification-driver.js';

const durationS = Number(process.env.CAPACITY_DURATION_S ?? 10);
const connections = Number(process.env.CAPACITY_CONNECTIONS ?? 16);
const verifications = Number(process.env.CAPACITY_VERIFICATIONS ?? 20);
const log = (msg: string) => process.stderr.write(`capacity: ${msg}\n`);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const UNLIMITED = {
  TICKETING_RATE_LIMIT_PER_MINUTE: '100000000',
  CAPTURE_RATE_LIMIT_PER_MINUTE: '100000000',
  IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
  GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000000',
  // Identity webhook_url is checked at creation: the bench's points at a closed local port.
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  LOG_LEVEL: 'warn',
  ADMIN_TOKEN: `bench-${randomBytes(16).toString('hex')}`,
};

async function main() {
  if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
    log('set DATABASE_URL to a PostgreSQL server: API and worker roles need it (docs/operations.md, "Roles")');
    process.exit(2);
  }
  const cores = availableParallelism();
  if (cores < 2) {
    log('needs 2 CPUs: one for the measured instance, one for PostgreSQL and the load');
    process.exit(2);
  }
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg()[0]!;
  const store = await createStore();
  const children: Child[] = [];
  const rows: string[] = [];
  try {
    log(`seeding (${store.kind})…`);
    const s = await seed(store);
    const env = { ...store.env, ...UNLIMITED };

    log('API instance on CPU 0…');
    const api = await startChild('src/server.ts', { ...env, ROLE: 'api' }, '/ready', 60_000, '0');
    children.push(api);
    const base = `http://127.0.0.1:${api.port}`;
    const ticketing = { authorization: `Bearer ${s.ticketingKey}` };
    const routes: [string, LoadTarget][] = [
      ['GET /api/v1/events/{id}', { url: `${base}/api/v1/events/${s.eventId}`, headers: ticketing }],
      [
        'GET /api/v1/events?limit=20 (random page 1–50)',
        {
          url: `${base}/api/v1/events?limit=20`,
          headers: ticketing,
          path: () => `/api/v1/events?limit=20&page=${1 + Math.floor(Math.random() * 50)}`,
        },
      ],
      [
        'POST /api/v1/events',
        {
          url: `${base}/api/v1/events`,
          method: 'POST',
          headers: ticketing,
          body: newEvent('Capacity night', s.venueId),
        },
      ],
    ];
    for (const [label, target] of routes) {
      // A short warm-up so the JIT and the connection pool are not what is measured.
      await drive(target, 2, connections);
      log(`${label}: ${durationS} s, ${connections} connections…`);
      const f = await drive(target, durationS, connections);
      rows.push(`| ${label} | ${fmt(f.reqPerSec)} req/s | p50 ${fmt(f.p50Ms, 1)} ms, p99 ${fmt(f.p99Ms, 1)} ms | ${f.failures} |`);
    }

    log('worker instance on CPU 1 (face checks and document reading on)…');
    const worker = await startChild('src/server.ts', { ...env, ROLE: 'worker' }, '/ready', 120_000, '1');
    children.push(worker);
    const { prepare, decided } = await verificationDriver(base, s.identityKey, 45);
    log('warm-up verification (the worker loads its models)…');
    const warm = await prepare();
    await warm.last();
    await decided(warm.id, 200, 300_000);
    log(`preparing ${verifications} verifications…`);
    const batch = [];
    for (let i = 0; i < verifications; i++) batch.push(await prepare());
    log(`sending their last frames at once…`);
    const t0 = performance.now();
    await Promise.all(batch.map((v) => v.last()));
    const outcomes = await Promise.all(batch.map((v) => decided(v.id, 250, 1_800_000)));
    const elapsedS = (performance.now() - t0) / 1000;
    const perHour = (verifications / elapsedS) * 3600;
    const tally = new Map<string, number>();
    for (const o of outcomes) tally.set(o, (tally.get(o) ?? 0) + 1);
    const steps = batch.reduce((n, v) => n + v.steps, 0);

    const report = [
      `Capacity per core: run ${startedAt} on PostgreSQL, ${cores} CPUs, load average ${fmt(loadBefore, 1)} before the run and ${fmt(loadavg()[0]!, 1)} after; the measured instance pinned to one core, PostgreSQL and the load generator on the others.`,
      '',
      '| Partner route (ROLE=api, one core) | throughput | latency | failures |',
      '|---|---:|---|---:|',
      ...rows,
      '',
      '| Identity work (ROLE=worker, one core, faces and reading on) | figure |',
      '|---|---:|',
      `| verifications decided | ${verifications} (${steps} selfie frames, ${verifications * 2} document sides) |`,
      `| first last frame → last decision | ${fmt(elapsedS, 1)} s |`,
      `| verifications decided per hour per core | ${fmt(perHour)} |`,
      `| outcomes | ${[...tally].map(([o, n]) => `${n} × ${o}`).join('; ')} |`,
      '',
    ].join('\n');
    writeFileSync('bench/capacity-results.md', report);
    process.stdout.write(report);
  } finally {
    for (const child of children.reverse()) await child.stop();
    await store.drop();
  }
}

main().catch((err) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
