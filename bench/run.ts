// `npm run bench`: seeds realistic data, measures the reference routes, then the server, and
// writes bench/results.json and bench/results.md. BENCH_DURATION_S (default 10) per route,
// BENCH_CONNECTIONS (default 32), BENCH_WARMUP_S (default 2, unrecorded). On PostgreSQL when DATABASE_URL is set, else embedded PGlite.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bareVerifyLoop, drive, driveUploadsInterleaved, multipartBody, probe, type LoadTarget, type UploadSide } from './load.js';
import { facesMarkdown, facesVerdicts, measureFaces, type FacesResult } from './faces.js';
import { hostileMarkdown, measureHostileUploads, type HostileResult } from './hostile-uploads.js';
import { documentImage } from './png.js';
import { documentReadingMarkdown, measureDocumentReading, type DocumentReadFigure } from './documents.js';
import { rssOf, sampleRss, startChild, type Child } from './processes.js';
import { toMarkdown, verdicts, type Results, type Row, type UploadResult } from './report.js';
import { createStore, newEvent, seed, type Seeded } from './seed.js';
import { measureStartup, startupMarkdown, type StartupResult } from './startup.js';
import { LOG_CONNECTIONS, LOG_RECORDS, seedLog, transparencyLogMarkdown, type SeededLog } from './transparency-log.js';
import { measureWebhooks, webhooksMarkdown } from './webhooks.js';

const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Unrecorded load before each measured route, so JIT and pools are warm. */
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 2);
const UPLOAD_BYTES = 15_000_000;
const VERIFIED_RECORDS = 200;
const UPLOAD_CONCURRENCY = 10;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const ROUTE_IDS = ['event', 'page20', 'page100', 'createEvent', 'orders100', 'decide', 'verify'];
/**
 * BENCH_ONLY=<ids>: only these sections, comma-separated: route ids (above; A and B are measured
 * with any of them), `uploads`, `faces`, `hostile` (hostile uploads, bench/hostile-uploads.ts), `startup`, `webhooks`, `log` (the transparency log's proofs
 * and checkpoint over BENCH_LOG_RECORDS records, bench/transparency-log.ts), `documents` (the document
 * reader's time on photos with no zone and on readable documents, bench/documents.ts). With BENCH_CPU_PROF, one route
 * at a time gives that route's profile. Unset: everything.
 */
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((id) => id.trim())) : undefined;
const wants = (id: string) => !only || only.has(id);
const wantsRoutes = ROUTE_IDS.some(wants);

/** The transparency log's rows: measured with the `log` section. */
const isLogRow = (id: string) => id.startsWith('log');

async function measure(rows: Row[], id: string, label: string, target: LoadTarget, expect: number[] = [200, 201], conns = connections) {
  if (!(isLogRow(id) ? wants('log') : wants(id) || id === 'A' || id === 'B')) return;
  try {
    const first = await probe(target);
    if (!expect.includes(first.status)) {
      // The seeded ids exist: a 404 means the route is not mounted (yet).
      const missing = first.status === 404;
      rows.push({
        id,
        label,
        status: missing ? 'not available' : 'failed',
        reason: missing ? 'route not mounted' : `answered ${first.status}`,
      });
      log(`${label}: ${missing ? 'not available' : `failed (${first.status}: ${first.body.slice(0, 200)})`}`);
      return;
    }
    log(`${label}: ${durationS} s…`);
    if (warmupS > 0) await drive(target, warmupS, conns);
    rows.push({ id, label, status: 'ok', figure: await drive(target, durationS, conns) });
  } catch (err) {
    rows.push({ id, label, status: 'failed', reason: err instanceof Error ? err.message : String(err) });
  }
}

async function admin(base: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${base}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.ok ? res.json() : undefined;
}

async function measureServer(base: string, s: Seeded, rows: Row[]): Promise<Record<string, unknown> | undefined> {
  const ticketing = { authorization: `Bearer ${s.ticketingKey}` };
  const governance = { authorization: `Bearer ${s.governanceKey}` };
  await measure(rows, 'event', 'GET /api/v1/events/{id}', { url: `${base}/api/v1/events/${s.eventId}`, headers: ticketing });
  // Pages are drawn at random across the list, as people page: a deep page costs more than page 1.
  const randomPage = (limit: number, pages: number) => () => `/api/v1/events?limit=${limit}&page=${1 + Math.floor(Math.random() * pages)}`;
  await measure(rows, 'page20', 'GET /api/v1/events?limit=20 (random page 1–50)', {
    url: `${base}/api/v1/events?limit=20`,
    headers: ticketing,
    path: randomPage(20, 50),
  });
  await measure(rows, 'page100', 'GET /api/v1/events?limit=100 (random page 1–10)', {
    url: `${base}/api/v1/events?limit=100`,
    headers: ticketing,
    path: randomPage(100, 10),
  });
  await measure(rows, 'createEvent', 'POST /api/v1/events', {
    url: `${base}/api/v1/events`,
    method: 'POST',
    headers: ticketing,
    body: newEvent('Benchmark night', s.venueId),
  });
  await measure(rows, 'orders100', 'GET /api/v1/events/{id}/orders?limit=100 (attendees:read)', {
    url: `${base}/api/v1/events/${s.bigEventId}/orders?limit=100`,
    headers: ticketing,
  });

  const agent = 'bench-agent';
  await admin(base, '/governance/agents', {
    profileId: s.profileId,
    agentId: agent,
    mandate: ['tickets.refund'],
    baseline: { fingerprint: 'fp-bench', maxDrift: 0.5 },
  });
  await admin(base, '/governance/delegations', {
    profileId: s.profileId,
    agentId: agent,
    grantedBy: 'ops@example.com',
    expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
  const decision: LoadTarget = {
    url: `${base}/v1/governance/decisions`,
    method: 'POST',
    headers: governance,
    body: {
      agent_id: agent,
      action: 'tickets.refund',
      authority_status: 'VALID',
      human_present: true,
      consequence_tier: 'MODERATE',
      timestamp: new Date().toISOString(),
      behavior: { fingerprint: 'fp-bench', drift: 0.1 },
    },
  };
  // Records to verify, presented in turn: a partner checks a receipt when it arrives and again when it acts on it.
  const records: Record<string, unknown>[] = [];
  for (let i = 0; i < VERIFIED_RECORDS; i++) {
    const sealed = await probe(decision).catch(() => undefined);
    if (sealed?.status !== 201) break;
    records.push(JSON.parse(sealed.body) as Record<string, unknown>);
  }
  const record = records[0];
  await measure(rows, 'decide', 'POST /v1/governance/decisions (decide + seal)', decision);
  if (record) {
    let next = 0;
    await measure(rows, 'verify', `POST /v1/crypto/verify (${records.length} records in turn)`, {
      url: `${base}/v1/crypto/verify`,
      method: 'POST',
      body: { record },
      nextBody: () => ({ record: records[next++ % records.length] }),
    });
  } else {
    rows.push({ id: 'verify', label: 'POST /v1/crypto/verify', status: 'not available', reason: 'no sealed record to verify' });
  }
  return record;
}

/** Inclusion and consistency proofs at random positions of the seeded log, and its checkpoint. */
async function measureLog(base: string, l: SeededLog, rows: Row[]) {
  const headers = { authorization: `Bearer ${l.key}` };
  const pick = (n: number) => 1 + Math.floor(Math.random() * n);
  const inclusion = () => `/v1/governance/proofs/inclusion?seq=${pick(l.size)}&tree_size=${l.size}`;
  await measure(
    rows,
    'logInclusion',
    'GET /v1/governance/proofs/inclusion (random seq, whole tree)',
    { url: `${base}${inclusion()}`, headers, path: inclusion },
    [200],
    LOG_CONNECTIONS,
  );
  const consistency = () => {
    const to = pick(l.size);
    return `/v1/governance/proofs/consistency?from=${pick(to)}&to=${to}`;
  };
  await measure(
    rows,
    'logConsistency',
    'GET /v1/governance/proofs/consistency (random from ≤ to)',
    { url: `${base}${consistency()}`, headers, path: consistency },
    [200],
    LOG_CONNECTIONS,
  );
  await measure(
    rows,
    'logCheckpoint',
    'GET /v1/governance/log (signed checkpoint)',
    { url: `${base}/v1/governance/log`, headers },
    [200],
    LOG_CONNECTIONS,
  );
}

/**
 * Ten concurrent 15 MB document uploads to the server and to the bare multipart route, in
 * alternating slices (bench/load.ts), and the server's peak RSS above its idle level meanwhile.
 */
async function measureUploads(base: string, server: Child, s: Seeded, ref: string): Promise<UploadResult> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const body = multipartBody(documentImage(UPLOAD_BYTES), boundary);
  const result: UploadResult = {};
  const handoff = async (): Promise<Record<string, string>> => {
    const res = await fetch(`${base}/v1/verifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.identityKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks/identity', reference: 'bench' }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/verifications answered ${res.status}`);
    const v = (await res.json()) as { handoff_token: string };
    return { authorization: `Bearer ${v.handoff_token}` };
  };
  const sides: [UploadSide, UploadSide] = [
    { url: `${ref}/upload`, authorize: async (count) => Array.from({ length: count }, () => ({})) },
    {
      url: `${base}/v1/capture/document`,
      authorize: async (count) => {
        const headers: Record<string, string>[] = [];
        while (headers.length < count)
          headers.push(...(await Promise.all(Array.from({ length: Math.min(8, count - headers.length) }, handoff))));
        return headers;
      },
    },
  ];
  try {
    // One unrecorded upload to each side first.
    for (const side of sides) {
      const [h] = await side.authorize(1);
      const one = await fetch(side.url, {
        method: 'POST',
        headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      if (one.status !== 201)
        throw new Error(`POST ${new URL(side.url).pathname} answered ${one.status}: ${(await one.text()).slice(0, 200)}`);
    }
    await sleep(500);
    const idle = rssOf(server.proc.pid!);
    const sampler = sampleRss(server.proc.pid!);
    log(`uploads, the bare multipart route and the server in turn: 2 × ${durationS} s…`);
    [result.bare, result.server] = await driveUploadsInterleaved(sides, body, boundary, UPLOAD_CONCURRENCY, durationS);
    result.serverPeakRssAboveIdleMb = (sampler.stop() - idle) / 1024 / 1024;
  } catch (err) {
    result.reason = err instanceof Error ? err.message : String(err);
    log(`uploads: ${result.reason}`);
  }
  return result;
}

async function main() {
  const startedAt = new Date().toISOString();
  const store = await createStore();
  const rows: Row[] = [];
  let uploads: UploadResult = {};
  let faces: FacesResult = {};
  let hostile: HostileResult | undefined;
  let startup: StartupResult | undefined;
  let documentReading: DocumentReadFigure[] | undefined;
  let server: Child | undefined;
  let reference: Child | undefined;
  try {
    log(`seeding (${store.kind})…`);
    const seeded = await seed(store);
    const seededLog = wants('log') ? await seedLog(store, LOG_RECORDS, log) : undefined;

    if (wantsRoutes || wants('uploads')) {
      reference = await startChild('bench/reference-server.ts', store.env, '/hello');
      const ref = `http://127.0.0.1:${reference.port}`;
      await measure(rows, 'A', 'A: bare Fastify hello world', { url: `${ref}/hello` });
      await measure(rows, 'B', 'B: bare Fastify + one prepared SELECT by id', { url: `${ref}/events/${seeded.eventId}` });
      // The bare upload route is measured in turn with the server's (measureUploads): it stays up, idle until then.
      if (!wants('uploads')) {
        await reference.stop();
        reference = undefined;
      }
    }

    server = await startChild(
      'src/server.ts',
      {
        ...store.env,
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        TICKETING_RATE_LIMIT_PER_MINUTE: '100000000',
        CAPTURE_RATE_LIMIT_PER_MINUTE: '100000000',
        IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000000',
        // Identity webhook_url is checked at creation: the bench's points at a closed local port.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        // `EVENT_PAGE_CACHE_MB=0 npm run bench` measures event pages read from the database at every request.
        ...(process.env.EVENT_PAGE_CACHE_MB ? { EVENT_PAGE_CACHE_MB: process.env.EVENT_PAGE_CACHE_MB } : {}),
        // `METRICS_TOKEN=… npm run bench` measures with the metrics on (docs/operations.md, "Metrics, traces and alerts").
        ...(process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {}),
      },
      '/ready',
    );
    const base = `http://127.0.0.1:${server.port}`;
    if (wantsRoutes) {
      const record = await measureServer(base, seeded, rows);
      if (record && wants('verify')) {
        log(`bare Ed25519 verify loop: ${durationS} s…`);
        rows.push({
          id: 'verifyLoop',
          label: 'bare node:crypto Ed25519 verify loop (JCS + verify)',
          status: 'ok',
          figure: bareVerifyLoop(record, durationS),
        });
      }
    }
    if (seededLog) await measureLog(base, seededLog, rows);
    if (wants('uploads') && reference) {
      uploads = await measureUploads(base, server, seeded, `http://127.0.0.1:${reference.port}`);
      await reference.stop();
      reference = undefined;
    }
    if (wants('faces')) faces = await measureFaces(base, server.proc.pid!, seeded, durationS, connections, log);
    if (wants('hostile')) hostile = await measureHostileUploads(base, server.proc.pid!, seeded.identityKey, log);
    await server.stop();
    server = undefined;
    if (wants('startup')) startup = await measureStartup(store.env.DATABASE_URL, log);
    // In this process, with the server stopped: the reader's own time, not the API's.
    if (wants('documents')) documentReading = await measureDocumentReading(log);
  } finally {
    await reference?.stop();
    await server?.stop();
    await store.drop();
  }

  const results: Results = { startedAt, database: store.kind, durationS, connections, node: process.version, rows, uploads };
  const dir = import.meta.dirname;
  // A partial run keeps the full run's files and writes its own.
  const name = !only ? 'results' : only.size === 1 && only.has('faces') ? 'results-faces' : 'results-only';
  writeFileSync(
    join(dir, `${name}.json`),
    `${JSON.stringify({ ...results, targets: verdicts(results), startup, faces, facesTargets: facesVerdicts(faces), hostile, documentReading }, null, 2)}\n`,
  );
  let markdown =
    (wantsRoutes || wants('uploads') ? toMarkdown({ ...results, rows: rows.filter((r) => !isLogRow(r.id)) }) : '') +
    (wants('log') ? transparencyLogMarkdown(rows, LOG_RECORDS, { startedAt, database: store.kind, durationS }) : '') +
    (startup ? startupMarkdown(startup) : '') +
    (wants('faces') ? facesMarkdown(faces) : '') +
    hostileMarkdown(hostile) +
    (documentReading ? documentReadingMarkdown(documentReading) : '');
  if (wants('webhooks') && process.env.BENCH_WEBHOOKS !== '0') {
    // Background work (bench/webhooks.ts): its own store, server and receiver.
    const background = await measureWebhooks();
    writeFileSync(join(dir, 'webhooks-results.json'), `${JSON.stringify(background, null, 2)}\n`);
    markdown = `${markdown}\n${webhooksMarkdown(background)}`;
  }
  writeFileSync(join(dir, `${name}.md`), markdown);
  process.stdout.write(markdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
