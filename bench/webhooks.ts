// Background work under load (docs/benchmarks.md): webhook throughput against a bare keep-alive
// POST loop to the same HTTPS receiver, isolation from a receiver that never answers, and the
// idle latency from commit to receiver. Runs the server as its own process on the store of
// createStore() (PostgreSQL when DATABASE_URL is set). `npm run bench:webhooks` runs it alone.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { issueApiKey } from '../src/auth/api-keys.js';
import { openDatabase, rowsOf } from '../src/db/client.js';
import { applyMigrations } from '../src/db/migrate.js';
import { systemClock } from '../src/lib/clock.js';
import { serviceHmacSigner } from '../src/webhooks/signers.js';
import { makeLocalCertificate, type Certificate } from '../scripts/local-certificate.js';
import { png } from '../scripts/fixtures/images.js';
import { startChild, type Child } from './processes.js';
import { ratioShown } from './report.js';
import { createStore, type Store } from './seed.js';

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 1000);
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 16);
export const BARE_IN_FLIGHT = 32;
/** Requests (and deliveries) each side makes before its clock starts: both are measured warm. */
const WARMUP = Math.min(1000, DELIVERIES);
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

interface WebhookBench {
  startedAt: string;
  database: string;
  node: string;
  bareLoopPerS?: number;
  deliveriesPerS?: number;
  singleEndpointPerS?: number;
  tlsConnections?: number;
  otherTenantFirstMs?: number;
  identityDecisionMs?: number;
  commitToReceiverP50Ms?: number;
  commitToReceiverP99Ms?: number;
  reason?: string;
}

/** A self-signed certificate for 127.0.0.1, the receiver's (the project's own maker, scripts/local-certificate.ts). */
export function benchCertificate(): Promise<Certificate> {
  return makeLocalCertificate({ commonName: 'localhost', dnsNames: ['localhost'], ips: ['127.0.0.1'], days: 1 });
}

/** An HTTPS receiver: answers 200, or never on paths under /dead; records when each request arrived. */
export async function startReceiver(cert: { key: string; cert: string }) {
  const arrivals = new Map<string, number[]>();
  let connections = 0;
  const server: Server = createServer({ key: cert.key, cert: cert.cert, keepAliveTimeout: 60_000 }, (req, res) => {
    const at = performance.now();
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      const seen = arrivals.get(path);
      if (seen) seen.push(at);
      else arrivals.set(path, [at]);
      if (path.startsWith('/dead')) return;
      res.writeHead(200).end('ok');
    });
  });
  server.on('secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `https://127.0.0.1:${port}${path}`,
    count: (prefix: string) => [...arrivals].filter(([p]) => p.startsWith(prefix)).reduce((n, [, a]) => n + a.length, 0),
    arrivals: (path: string) => arrivals.get(path) ?? [],
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
type BenchReceiver = Awaited<ReturnType<typeof startReceiver>>;

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/**
 * What the issue compares against: the same signed JSON POSTed over keep-alive HTTPS, 32 in
 * flight, on connections the agent has open already (a keep-alive loop's steady state).
 */
export async function bareLoop(receiver: BenchReceiver, agent: Agent, n: number): Promise<number> {
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'webhook.test',
    created: new Date().toISOString(),
    data: { endpointId: randomUUID() },
  });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...serviceHmacSigner.sign({ eventId: randomUUID(), timestampSec: Math.floor(Date.now() / 1000), body, secrets: ['whsec_bench'] }),
  };
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: receiver.port, path: '/bare', method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BARE_IN_FLIGHT }, async () => {
      while (next < n) {
        next += 1;
        await post();
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

/** n deliveries committed at once in one transaction (as a burst of events would be), spread over the endpoints. */
async function enqueueDeliveries(
  databaseUrl: string,
  endpoints: { id: string; url: string; profileId: string }[],
  n: number,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `with ev as (
         insert into webhook_events (id, profile_id, type, body, payload, created_at)
         select gen_random_uuid(), (e->>'profileId')::uuid, 'webhook.test', jsonb_build_object('n', g), jsonb_build_object('n', g)::text, now()
         from generate_series(1, $1::int) g, lateral (select $2::jsonb -> ((g - 1) % jsonb_array_length($2::jsonb))) as x(e)
         returning id, body),
       d as (select gen_random_uuid() as id, gen_random_uuid() as job_id, ev.id as event_id,
               $2::jsonb -> (((ev.body->>'n')::int - 1) % jsonb_array_length($2::jsonb)) as e from ev),
       jobs_in as (
         insert into jobs (id, queue, payload, state, run_at, concurrency_key, created_at, updated_at)
         select job_id, 'webhooks.deliver', jsonb_build_object('deliveryId', id), 'pending', now(), 'webhook-endpoint:' || (e->>'id'), now(), now() from d)
       insert into webhook_deliveries (id, event_id, profile_id, endpoint_id, url, signer, policy, state, max_attempts, next_attempt_at, job_id, created_at, updated_at)
       select id, event_id, (e->>'profileId')::uuid, (e->>'id')::uuid, e->>'url', 'service-hmac', 'default', 'pending', 8, now(), job_id, now(), now() from d`,
      [n, JSON.stringify(endpoints)],
    );
  } finally {
    await client.end();
  }
}

async function admin(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

async function endpointFor(base: string, name: string, url: string) {
  const profile = await admin(base, '/profiles', { name, plan: 'ENTERPRISE' });
  const endpoint = await admin(base, `/profiles/${profile.data.id}/webhook-endpoints`, { url });
  return { id: endpoint.data.id as string, url, profileId: profile.data.id as string };
}

/** A verification carried through capture over HTTP; resolves when the last upload was answered. */
async function captureVerification(base: string, identityKey: string): Promise<string> {
  const created = await fetch(`${base}/v1/verifications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${identityKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/identity-hooks', reference: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`POST /v1/verifications answered ${created.status}`);
  const v = (await created.json()) as { id: string; handoff_token: string };
  const auth = { authorization: `Bearer ${v.handoff_token}` };
  const upload = async (path: string, image: Buffer, step?: number) => {
    const form = new FormData();
    if (step !== undefined) form.append('step', String(step));
    form.append('file', new Blob([image], { type: 'image/png' }), 'image.png');
    const res = await fetch(`${base}/v1/capture/${path}`, { method: 'POST', headers: auth, body: form });
    if (res.status !== 201) throw new Error(`POST /v1/capture/${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  };
  await upload('document', png(640, 480, { seed: 7 }));
  const challenge = (await (await fetch(`${base}/v1/capture/challenge`, { method: 'POST', headers: auth })).json()) as {
    steps: { step: number }[];
  };
  for (const { step } of challenge.steps) await upload('selfie', png(640, 480, { seed: 100 + step }), step);
  return v.id;
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

export async function measureWebhooks(): Promise<WebhookBench> {
  const result: WebhookBench = { startedAt: new Date().toISOString(), database: 'none', node: process.version };
  const store: Store = await createStore();
  result.database = store.kind;
  const pems = await benchCertificate();
  const certDir = mkdtempSync(join(tmpdir(), 'bench-ca-'));
  writeFileSync(join(certDir, 'ca.pem'), pems.cert);
  const receiver = await startReceiver({ key: pems.key, cert: pems.cert });
  let server: Child | undefined;
  try {
    const database = await openDatabase({ url: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR! });
    let identityKey: string;
    try {
      await applyMigrations(database);
      const [profile] = rowsOf<{ id: string }>(
        await database.db.execute(
          sql`insert into profiles (name, plan, created_at, updated_at) values ('Bench identity', 'ENTERPRISE', now(), now()) returning id`,
        ),
      );
      identityKey = (await issueApiKey(database.db, systemClock, { profileId: profile!.id, service: 'identity', role: 'backend' })).key;
    } finally {
      await database.close();
    }
    server = await startChild(
      'src/server.ts',
      {
        ...store.env,
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        CAPTURE_RATE_LIMIT_PER_MINUTE: '100000000',
        IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(certDir, 'ca.pem'),
        // The delivery lane's settings, passed on when set, so that other values can be measured.
        ...Object.fromEntries(
          ['JOBS_DELIVERY_CONCURRENCY', 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', 'METRICS_TOKEN'].flatMap((k) =>
            process.env[k] ? [[k, process.env[k]!]] : [],
          ),
        ),
      },
      '/ready',
    );
    const base = `http://127.0.0.1:${server.port}`;

    log(`webhooks: bare keep-alive POST loop, ${DELIVERIES} requests, ${BARE_IN_FLIGHT} in flight…`);
    const agent = new Agent({ keepAlive: true, ca: pems.cert, maxSockets: BARE_IN_FLIGHT });
    await bareLoop(receiver, agent, WARMUP);
    result.bareLoopPerS = await bareLoop(receiver, agent, DELIVERIES);
    agent.destroy();

    // Idle latency first, on a quiet system: commit (the operator's test event) to arrival.
    const idle = await endpointFor(base, 'Bench idle', receiver.url('/idle'));
    const latencies: number[] = [];
    for (let i = 0; i < 60; i++) {
      const sent = performance.now();
      await admin(base, `/webhook-endpoints/${idle.id}/test`);
      await until(() => receiver.arrivals('/idle').length > i, 10_000, 'an idle delivery');
      if (i >= 10) latencies.push(receiver.arrivals('/idle')[i]! - sent); // the first ten warm up
      await sleep(20);
    }
    result.commitToReceiverP50Ms = quantile(latencies, 0.5);
    result.commitToReceiverP99Ms = quantile(latencies, 0.99);
    log(`webhooks: commit → receiver p50 ${result.commitToReceiverP50Ms.toFixed(1)} ms`);

    log(`webhooks: ${DELIVERIES} deliveries over ${ENDPOINTS} endpoints…`);
    const endpoints = [];
    for (let i = 0; i < ENDPOINTS; i++) endpoints.push(await endpointFor(base, `Bench tenant ${i}`, receiver.url(`/t${i}`)));
    // Warmed up as the bare loop is: the server's delivery path compiled and its connections
    // open before the clock starts. Cold, both sides mostly measured TLS handshakes and the
    // JIT (the bare loop ran at 4,000 /s cold against 7,200-11,900 /s warm on the same machine).
    const connectionsBefore = receiver.connections;
    await enqueueDeliveries(store.env.DATABASE_URL!, endpoints, WARMUP);
    await until(() => receiver.count('/t') >= WARMUP, 300_000, 'the warm-up deliveries');
    let started = performance.now();
    await enqueueDeliveries(store.env.DATABASE_URL!, endpoints, DELIVERIES);
    await until(() => receiver.count('/t') >= WARMUP + DELIVERIES, 300_000, 'the deliveries');
    result.deliveriesPerS = DELIVERIES / ((performance.now() - started) / 1000);
    result.tlsConnections = receiver.connections - connectionsBefore;

    const single = await endpointFor(base, 'Bench single', receiver.url('/single'));
    const singleN = Math.min(300, DELIVERIES);
    started = performance.now();
    await enqueueDeliveries(store.env.DATABASE_URL!, [single], singleN);
    await until(() => receiver.count('/single') >= singleN, 300_000, 'the single-endpoint deliveries');
    result.singleEndpointPerS = singleN / ((performance.now() - started) / 1000);

    log('webhooks: isolation from 50 deliveries to a receiver that never answers…');
    const dead = await endpointFor(base, 'Bench dead', receiver.url('/dead'));
    await enqueueDeliveries(store.env.DATABASE_URL!, [dead], 50);
    await until(() => receiver.count('/dead') >= 1, 30_000, 'the dead receiver to be called');
    const other = await endpointFor(base, 'Bench other tenant', receiver.url('/other'));
    started = performance.now();
    await admin(base, `/webhook-endpoints/${other.id}/test`);
    await until(() => receiver.count('/other') >= 1, 60_000, "the other tenant's delivery");
    result.otherTenantFirstMs = performance.now() - started;

    const verificationId = await captureVerification(base, identityKey);
    started = performance.now();
    await until(
      async () => {
        const res = await fetch(`${base}/v1/verifications/${verificationId}`, { headers: { authorization: `Bearer ${identityKey}` } });
        const body = (await res.json()) as { status: string };
        return body.status !== 'processing';
      },
      60_000,
      'the identity decision',
    );
    result.identityDecisionMs = performance.now() - started;
  } catch (err) {
    result.reason = err instanceof Error ? err.message : String(err);
    log(`webhooks: ${result.reason}`);
  } finally {
    await server?.stop();
    await receiver.close();
    await store.drop();
    rmSync(certDir, { recursive: true, force: true });
  }
  return result;
}

const fmt = (n: number | undefined, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Deliveries per second against the bare keep-alive loop's (docs/benchmarks.md). */
const DELIVERY_RATIO_TARGET = 0.5;

export function webhooksMarkdown(r: WebhookBench): string {
  const ratio = r.deliveriesPerS && r.bareLoopPerS ? r.deliveriesPerS / r.bareLoopPerS : undefined;
  const verdict = (ok: boolean | undefined) => (ok === undefined ? '—' : ok ? 'met' : 'miss');
  const lines = [
    `Webhooks run ${r.startedAt} on ${r.database}, Node ${r.node}, one HTTPS receiver on loopback.${r.reason ? ` Incomplete: ${r.reason}` : ''}`,
    '',
    '| Background work | Figure | Target | Result |',
    '|---|---:|---|---|',
    `| bare keep-alive HTTPS POST loop (${BARE_IN_FLIGHT} in flight, warm) | ${fmt(r.bareLoopPerS)} /s |  | — |`,
    `| webhook deliveries, ${DELIVERIES} over ${ENDPOINTS} endpoints, warm (× bare loop) | ${fmt(r.deliveriesPerS)} /s (${ratio === undefined ? '—' : ratioShown(ratio, DELIVERY_RATIO_TARGET)} ×), ${fmt(r.tlsConnections)} TLS connections | ≥ ${DELIVERY_RATIO_TARGET} × bare loop | ${verdict(ratio === undefined ? undefined : ratio >= DELIVERY_RATIO_TARGET)} |`,
    `| webhook deliveries, one endpoint (cap ${4} in flight) | ${fmt(r.singleEndpointPerS)} /s |  | — |`,
    `| another tenant's first delivery, 50 queued to a receiver that never answers | ${fmt(r.otherTenantFirstMs)} ms | ≤ 2,000 ms | ${verdict(r.otherTenantFirstMs === undefined ? undefined : r.otherTenantFirstMs <= 2000)} |`,
    `| identity decision after the last upload, same time | ${fmt(r.identityDecisionMs)} ms | ≤ 5,000 ms | ${verdict(r.identityDecisionMs === undefined ? undefined : r.identityDecisionMs <= 5000)} |`,
    `| commit → receiver, idle (p50 / p99, 50 sequential test events) | ${fmt(r.commitToReceiverP50Ms, 1)} / ${fmt(r.commitToReceiverP99Ms, 1)} ms | p50 ≤ 100 ms | ${verdict(r.commitToReceiverP50Ms === undefined ? undefined : r.commitToReceiverP50Ms <= 100)} |`,
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('bench/webhooks.ts')) {
  measureWebhooks()
    .then((r) => {
      const markdown = webhooksMarkdown(r);
      writeFileSync(join(import.meta.dirname, 'webhooks-results.json'), `${JSON.stringify(r, null, 2)}\n`);
      writeFileSync(join(import.meta.dirname, 'webhooks-results.md'), markdown);
      process.stdout.write(markdown);
    })
    .catch((err: unknown) => {
      process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
