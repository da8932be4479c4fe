// `npm run bench:growth`: does a hot route cost more when the tables around it grow a hundredfold?
// On PostgreSQL (DATABASE_URL): 1,000 profiles, the measured one with its own 1,000 rows per table
// from the start, the others with 10 rows per table (about 10⁴ rows in each large table), then 1,000
// (about 10⁶). Each hot route is measured at both sizes with the same requests; the target is p50 at
// 10⁶ within 1.5 × of p50 at 10⁴. Both sizes are two databases served at once, and each route is
// measured on one then the other in several rounds (the median p50 of the rounds is reported): a
// machine busy with something else slows both alike instead of whichever size it happened to meet.
// Writes bench/growth-results.md. GROWTH_DURATION_S (default 3) per route and round, GROWTH_ROUNDS
// (default 3), GROWTH_CONNECTIONS (default 4: a latency, not a throughput, figure); GROWTH_KEEP=1 keeps
// the two databases afterwards (their URLs are logged).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { issueApiKey } from '../src/auth/api-keys.js';
import { openDatabase, rowsOf } from '../src/db/client.js';
import { applyMigrations } from '../src/db/migrate.js';
import { systemClock } from '../src/lib/clock.js';
import { createProfiles, MEASURED, seedWave, tableSizes } from './growth-seed.js';
import { drive, probe, type Figure, type LoadTarget } from './load.js';
import { startChild } from './processes.js';
import { createStore, type Store } from './seed.js';

const durationS = Number(process.env.GROWTH_DURATION_S ?? 3);
const rounds = Number(process.env.GROWTH_ROUNDS ?? 3);
const connections = Number(process.env.GROWTH_CONNECTIONS ?? 4);
const RATIO_TARGET = 1.5;
const ADMIN_TOKEN = `bench-${randomBytes(16).toString('hex')}`;
const log = (msg: string) => process.stderr.write(`growth: ${msg}\n`);

interface Tenant {
  profileId: string;
  venueId: string;
  eventId: string;
  orderId: string;
  verificationId: string;
  ticketing: string;
  backend: string;
  reviewer: string;
  governance: string;
}

/** The measured tenant's ids and keys, once its rows are written. */
async function tenantOf(store: Store): Promise<Tenant> {
  const database = await openDatabase({ url: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR! });
  try {
    const db = database.db;
    const one = async (q: ReturnType<typeof sql>) => rowsOf<{ id: string }>(await db.execute(q))[0]!.id;
    const profileId = await one(sql`select id from profiles where name = ${MEASURED}`);
    const venueId = await one(sql`select id from venues where profile_id = ${profileId}`);
    const eventId = await one(sql`select id from ticketing_events where profile_id = ${profileId} and name = 'Growth event 500'`);
    const orderId = await one(sql`select id from ticketing_orders where event_id = ${eventId}`);
    const verificationId = await one(
      sql`select id from identity_verifications where profile_id = ${profileId} and reference = 'measured-500'`,
    );
    const key = async (grant: Omit<Parameters<typeof issueApiKey>[2], 'profileId'>) =>
      (await issueApiKey(db, systemClock, { profileId, ...grant })).key;
    return {
      profileId,
      venueId,
      eventId,
      orderId,
      verificationId,
      ticketing: await key({
        service: 'ticketing',
        scopes: ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'],
      }),
      backend: await key({ service: 'identity', role: 'backend' }),
      reviewer: await key({ service: 'identity', role: 'reviewer' }),
      governance: await key({ service: 'governance', scopes: ['governance:decide', 'governance:read'] }),
    };
  } finally {
    await database.close();
  }
}

interface Route {
  label: string;
  target: (base: string) => LoadTarget;
  expect: number[];
}

function routes(t: Tenant): Route[] {
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const admin = bearer(ADMIN_TOKEN);
  const get = (label: string, path: string, key: Record<string, string>, paths?: () => string): Route => ({
    label,
    expect: [200],
    target: (base) => ({ url: `${base}${path}`, headers: key, ...(paths ? { path: paths } : {}) }),
  });
  const post = (label: string, path: string, key: Record<string, string>, body: unknown): Route => ({
    label,
    expect: [201],
    target: (base) => ({ url: `${base}${path}`, method: 'POST', headers: key, body }),
  });
  const page = (n: number) => 1 + Math.floor(Math.random() * n);
  return [
    get('GET /api/v1/events/{id}', `/api/v1/events/${t.eventId}`, bearer(t.ticketing)),
    get(
      'GET /api/v1/events?limit=20 (random page 1–50)',
      '/api/v1/events?limit=20',
      bearer(t.ticketing),
      () => `/api/v1/events?limit=20&page=${page(50)}`,
    ),
    get('GET /api/v1/events/{id}/orders', `/api/v1/events/${t.eventId}/orders`, bearer(t.ticketing)),
    get('GET /api/v1/orders/{id}', `/api/v1/orders/${t.orderId}`, bearer(t.ticketing)),
    get('GET /api/v1/events/{id}/tickets', `/api/v1/events/${t.eventId}/tickets`, bearer(t.ticketing)),
    post('POST /api/v1/events', '/api/v1/events', bearer(t.ticketing), {
      name: 'Growth night',
      description: 'Created under load',
      placeId: t.venueId,
      address: '1 Dock Road',
      lat: 53.5,
      lng: 9.9,
      categories: ['music'],
      eventStartsAt: '2027-06-01T19:00:00.000Z',
      eventEndsAt: '2027-06-01T23:00:00.000Z',
      timezone: 'Europe/Berlin',
    }),
    get('GET /v1/verifications/{id}', `/v1/verifications/${t.verificationId}`, bearer(t.backend)),
    post('POST /v1/verifications', '/v1/verifications', bearer(t.backend), {
      reference: 'growth',
      webhook_url: 'https://127.0.0.1:9/hooks/identity',
    }),
    get('GET /v1/review (the queue)', '/v1/review', bearer(t.reviewer)),
    post('POST /v1/governance/decisions (decide + seal)', '/v1/governance/decisions', bearer(t.governance), {
      agent_id: 'growth-agent',
      action: 'tickets.refund',
      authority_status: 'VALID',
      human_present: true,
      consequence_tier: 'MODERATE',
      timestamp: new Date().toISOString(),
      behavior: { fingerprint: 'fp-growth', drift: 0.1 },
    }),
    get('GET /v1/governance/records?limit=20', '/v1/governance/records?limit=20', bearer(t.governance)),
    get('GET /admin/v1/webhook-deliveries?profileId=…&limit=20', `/admin/v1/webhook-deliveries?profileId=${t.profileId}&limit=20`, admin),
    get('GET /admin/v1/webhook-deliveries?limit=20 (every profile)', '/admin/v1/webhook-deliveries?limit=20', admin),
    get('GET /admin/v1/profiles/{id}/verifications?limit=20', `/admin/v1/profiles/${t.profileId}/verifications?limit=20`, admin),
    get('GET /admin/v1/activity', '/admin/v1/activity', admin),
  ];
}

interface Size {
  name: string;
  store: Store;
  tenant: Tenant;
  base: string;
  figures: Map<string, Figure[] | string>;
}

/** Each route on each size in turn, `rounds` times. */
async function measureInTurn(sizes: Size[]): Promise<void> {
  const lists = sizes.map((s) => routes(s.tenant));
  for (const [r, route] of lists[0]!.entries()) {
    for (let round = 0; round < rounds; round++) {
      for (const [i, size] of sizes.entries()) {
        if (typeof size.figures.get(route.label) === 'string') continue;
        const target = lists[i]![r]!.target(size.base);
        const first = await probe(target);
        if (!route.expect.includes(first.status)) {
          size.figures.set(route.label, `answered ${first.status}`);
          log(`${size.name} ${route.label}: answered ${first.status} ${first.body.slice(0, 300)}`);
          continue;
        }
        if (round === 0) await drive(target, 1, connections);
        const figure = await drive(target, durationS, connections);
        if (figure.reqPerSec === 0) {
          // Not one answer within the round: slower than the round itself, not "0 ms".
          size.figures.set(route.label, NO_ANSWER);
          log(`${size.name} ${route.label} round ${round + 1}: ${NO_ANSWER}`);
          continue;
        }
        size.figures.set(route.label, [...((size.figures.get(route.label) as Figure[] | undefined) ?? []), figure]);
        log(`${size.name} ${route.label} round ${round + 1}: p50 ${figure.p50Ms} ms, ${Math.round(figure.reqPerSec)} req/s`);
      }
    }
  }
}

const NO_ANSWER = `no answer within ${durationS} s`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The agent and its delegation that decisions need (the operator API, as an operator would). */
async function registerAgent(base: string, profileId: string): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${base}/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  // A second run finds them registered (409): either way they exist.
  await post('/governance/agents', {
    profileId,
    agentId: 'growth-agent',
    mandate: ['tickets.refund'],
    baseline: { fingerprint: 'fp-growth', maxDrift: 0.5 },
  });
  await post('/governance/delegations', {
    profileId,
    agentId: 'growth-agent',
    grantedBy: 'ops@example.com',
    expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
}

function markdown(sizes: Size[], rows: Record<string, number>[]) {
  const [small, large] = sizes as [Size, Size];
  const lines = [
    `Data growth: run ${new Date().toISOString()} on PostgreSQL; each route ${rounds} × ${durationS} s on each size in turn, ${connections} connections, the same tenant's requests at both sizes; p50 is the median of the rounds' p50.`,
    '',
    `| Table | rows at "10⁴" | rows at "10⁶" |`,
    '|---|---:|---:|',
    ...Object.keys(rows[0]!).map((t) => `| ${t} | ${rows[0]![t]!.toLocaleString('en-US')} | ${rows[1]![t]!.toLocaleString('en-US')} |`),
    '',
    `| Route | p50 ms at 10⁴ | p50 ms at 10⁶ | ratio | Target ≤ ${RATIO_TARGET} × |`,
    '|---|---:|---:|---:|---|',
  ];
  for (const [label, a] of small.figures) {
    const b = large.figures.get(label);
    if (typeof a === 'string' || typeof b === 'string' || !b) {
      const shown = (x: Figure[] | string | undefined) =>
        x === undefined ? 'not run' : typeof x === 'string' ? x : median(x.map((f) => f.p50Ms));
      lines.push(`| ${label} | ${shown(a)} | ${shown(b)} | – | ${a === NO_ANSWER || b === NO_ANSWER ? '**missed**' : 'not measured'} |`);
      continue;
    }
    const [pa, pb] = [median(a.map((f) => f.p50Ms)), median(b.map((f) => f.p50Ms))];
    // autocannon's p50 has a resolution of 1 ms: a route under 1 ms at both sizes passes.
    const ratio = Math.max(pb, 1) / Math.max(pa, 1);
    lines.push(`| ${label} | ${pa} | ${pb} | ${ratio.toFixed(2)} | ${ratio <= RATIO_TARGET ? 'met' : '**missed**'} |`);
  }
  return lines.join('\n') + '\n';
}

/** A new database with the measured tenant and the other tenants' rows 1..`others`. */
async function sized(name: string, others: number): Promise<Omit<Size, 'base'> & { rows: Record<string, number> }> {
  const store = await createStore();
  const database = await openDatabase({ url: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR! });
  await applyMigrations(database);
  await database.close();
  const url = store.env.DATABASE_URL!;
  await createProfiles(url);
  await seedWave(url, { name: 'measured', from: 1, to: 1_000, which: 'measured' }, (m) => log(`${name} ${m}`));
  await seedWave(url, { name: 'others', from: 1, to: others, which: 'others' }, (m) => log(`${name} ${m}`));
  return { name, store, tenant: await tenantOf(store), figures: new Map(), rows: await tableSizes(url) };
}

async function main() {
  if (!process.env.DATABASE_URL?.startsWith('postgres')) {
    log('set DATABASE_URL to a PostgreSQL server: the growth bench writes a million rows per table, a PGlite store would take hours');
    process.exit(2);
  }
  const made: Awaited<ReturnType<typeof sized>>[] = [];
  const servers: Awaited<ReturnType<typeof startChild>>[] = [];
  try {
    made.push(await sized('10⁴', 10));
    made.push(await sized('10⁶', 1_000));
    const sizes: Size[] = [];
    for (const m of made) {
      const server = await startChild(
        'src/server.ts',
        {
          ...m.store.env,
          ADMIN_TOKEN,
          LOG_LEVEL: 'warn',
          TICKETING_RATE_LIMIT_PER_MINUTE: '100000000',
          IDENTITY_RATE_LIMIT_PER_MINUTE: '100000000',
          GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000000',
          ADMIN_RATE_LIMIT_PER_MINUTE: '100000000',
          // The verifications' webhook_url points at a closed local port.
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        },
        '/ready',
        // A machine busy with the seeding's aftermath (autovacuum) or other work starts slowly.
        300_000,
      );
      servers.push(server);
      const base = `http://127.0.0.1:${server.port}`;
      await registerAgent(base, m.tenant.profileId);
      sizes.push({ ...m, base });
    }
    await measureInTurn(sizes);
    const md = markdown(
      sizes,
      made.map((m) => m.rows),
    );
    writeFileSync(new URL('./growth-results.md', import.meta.url), md);
    process.stdout.write(md);
  } finally {
    for (const s of servers) await s.stop();
    // GROWTH_KEEP=1 keeps both databases, to EXPLAIN a route's statements on them afterwards.
    if (process.env.GROWTH_KEEP === '1') log(`kept: ${made.map((m) => `${m.name} ${m.store.env.DATABASE_URL}`).join(', ')}`);
    else for (const m of made) await m.store.drop();
  }
}

await main();
