/**
 * `npm run demo`: the walkthrough of docs/walkthrough.md ("The first five minutes") run for you. It makes a
 * tenant with its keys, a venue, events (one published with a ticket type and an order), a
 * webhook endpoint, a verification captured from test/fixtures/walkthrough/ and decided (by a
 * reviewer key when the pipeline sends it to review) and a sealed governance decision, checks
 * offline that the log grew consistently past it (a second decision), then
 * prints what it made and how to look at it.
 *
 *   npm run demo                                   its own server (and webhook receiver), kept running until Ctrl-C
 *   npm run demo -- --exit                         the same, stopped once everything is made (CI)
 *   ADMIN_TOKEN=… [RECEIVER=<the receiver's directory>] npm run demo -- --url http://localhost:3000 [--webhook-url https://localhost:4000]
 *                                                  on a server already running, started as the walkthrough starts it
 *
 * Nothing comes from the internet: the decision webhook and the ticketing webhooks go to a local
 * receiver (scripts/webhook-receiver.ts), which its own server trusts through NODE_EXTRA_CA_CERTS.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { refundBotDecision } from './fixtures/refund-bot.js';

const root = join(import.meta.dirname, '..');
const fixtures = join(root, 'test', 'fixtures', 'walkthrough');
const USAGE = `usage: npm run demo [-- --exit] [-- --url <server> [--webhook-url <receiver>]] (ADMIN_TOKEN for --url; RECEIVER: the webhook receiver's directory)`;

let options: { url?: string; 'webhook-url'?: string; exit?: boolean; port?: string; help?: boolean };
try {
  options = parseArgs({
    options: {
      url: { type: 'string' },
      'webhook-url': { type: 'string' },
      exit: { type: 'boolean' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const children: ChildProcess[] = [];
let workDir: string | undefined;
function stopChildren(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('exit', stopChildren);

async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((done) => {
      const server = createServer();
      server.once('error', () => done(null));
      server.listen(port, '127.0.0.1', () => {
        const { port: got } = server.address() as AddressInfo;
        server.close(() => done(got));
      });
    });
  return (preferred !== undefined ? await tryPort(preferred) : null) ?? (await tryPort(0))!;
}

/** Starts a child process, its output into `log`, and waits until `ready` answers true. */
async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, log: string, ready: () => Promise<boolean>) {
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', out, out] });
  children.push(child);
  // A bound, not a measurement: on a quiet machine both start in seconds; on 2 cores shared
  // with other test runs (load average 25 and more) tsx compiling the server alone took over 3 minutes.
  const until = Date.now() + 600_000;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; its output: ${log}\n${readFileSync(log, 'utf8')}`);
    if (Date.now() > until) throw new Error(`${name} did not start within 10 minutes; its output: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
};

/** A server of its own: embedded database in a temporary DATA_DIR, a local webhook receiver. */
async function ownServer(): Promise<{ base: string; token: string; receiver: string; receiverDir: string; logs: string }> {
  workDir = mkdtempSync(join(tmpdir(), 'partner-demo-'));
  const receiverDir = join(workDir, 'webhook-receiver');
  mkdirSync(receiverDir);
  // 3000 when it is free, as in the walkthrough; `--port 0` takes any free port.
  const port = options.port === undefined ? await freePort(3000) : Number(options.port) || (await freePort());
  const receiverPort = await freePort();
  const base = `http://localhost:${port}`;
  const token = `demo-${randomBytes(12).toString('base64url')}`;
  console.log(`Starting a webhook receiver and a server of its own on ${base} (logs in ${workDir}) …`);
  await startChild(
    'the webhook receiver',
    [
      'scripts/webhook-receiver.ts',
      '--port',
      String(receiverPort),
      '--dir',
      receiverDir,
      '--jwks',
      `http://127.0.0.1:${port}/v1/.well-known/jwks.json`,
    ],
    { PATH: process.env.PATH ?? '' },
    join(workDir, 'webhook-receiver.log'),
    async () =>
      existsSync(join(workDir!, 'webhook-receiver.log')) &&
      readFileSync(join(workDir!, 'webhook-receiver.log'), 'utf8').includes('listening'),
  );
  await startChild(
    'the server',
    ['src/server.ts'],
    {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(workDir, 'data'),
      ADMIN_TOKEN: token,
      NODE_EXTRA_CA_CERTS: join(receiverDir, 'ca.pem'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    join(workDir, 'server.log'),
    () => answers(`${base}/ready`),
  );
  return { base, token, receiver: `https://localhost:${receiverPort}`, receiverDir, logs: workDir };
}

class RequestFailed extends Error {}

/** One call of the walkthrough: JSON in, JSON out, any answer but the expected one stops the demo. */
async function call(base: string, method: string, path: string, bearer: string, body?: unknown, headers: Record<string, string> = {}) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new RequestFailed(`${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

const file = (name: string) => new Blob([readFileSync(join(fixtures, name))], { type: 'image/jpeg' });

async function seed(base: string, token: string, receiver: string, receiverDir: string | undefined) {
  const op = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(base, method, `/admin/v1${path}`, token, body, headers);

  // A tenant and its keys (operator API)
  const profile = (await op('POST', '/profiles', { name: 'Moonlight Concerts', plan: 'ENTERPRISE' })).data;
  const venue = (
    await op('POST', `/profiles/${profile.id}/venues`, {
      name: 'Harbour Hall',
      address: 'Kai 4',
      city: 'Hamburg',
      lat: 53.54,
      lng: 9.98,
      timezone: 'Europe/Berlin',
    })
  ).data;
  const key = async (body: Record<string, unknown>) =>
    (await op('POST', '/api-keys', { profileId: profile.id, ...body })).data.key as string;
  const tk = await key({ service: 'ticketing', scopes: ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'] });
  const idv = await key({ service: 'identity', role: 'backend' });
  const reviewer = await key({ service: 'identity', role: 'reviewer', name: 'Demo reviewer' });
  const gov = await key({ service: 'governance', scopes: ['governance:decide', 'governance:read'] });

  // Ticketing: a webhook endpoint, three events, one published with a ticket type and an order
  const endpoint = (
    await op('POST', `/profiles/${profile.id}/webhook-endpoints`, {
      url: `${receiver}/ticketing`,
      events: ['event.published', 'order.paid'],
    })
  ).data;
  if (receiverDir && existsSync(receiverDir)) writeFileSync(join(receiverDir, 'secret'), `${endpoint.secret}\n`);
  const ticketing = (method: string, path: string, body?: unknown) => call(base, method, `/api/v1${path}`, tk, body);
  const events: { id: string; name: string }[] = [];
  for (const [i, name] of ['Midnight Jazz', 'Harbour Strings', 'Dockside Choir'].entries()) {
    const event = (
      await ticketing('POST', '/events', {
        name,
        description: 'Three sets by the water',
        address: 'Kai 4',
        lat: 53.54,
        lng: 9.98,
        categories: ['music'],
        placeId: venue.id,
        eventStartsAt: `2027-0${3 + i}-01T19:00:00.000Z`,
        timezone: 'Europe/Berlin',
      })
    ).data;
    events.push({ id: event.id, name });
  }
  const published = events[0]!;
  await ticketing('PATCH', `/events/${published.id}`, { name: 'Midnight Jazz (late show)' });
  const ticketType = (
    await op('POST', `/events/${published.id}/ticket-types`, { name: 'Standing', kind: 'STANDARD', price: '25.00', quantity: 200 })
  ).data;
  await op('POST', `/events/${published.id}/publish`);
  const order = (
    await op(
      'POST',
      `/events/${published.id}/orders`,
      {
        items: [{ ticketTypeId: ticketType.id, quantity: 2 }],
        buyer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        status: 'CONFIRMED',
      },
      { 'idempotency-key': randomUUID() },
    )
  ).data;

  // Identity: a verification captured from the walkthrough's files, then decided
  const identity = (method: string, path: string, bearer: string, body?: unknown) => call(base, method, `/v1${path}`, bearer, body);
  const created = await identity('POST', '/verifications', idv, { webhook_url: `${receiver}/identity`, reference: 'customer-42' });
  const handoff = created.handoff_token as string;
  const document = new FormData();
  document.append('file', file('passport.jpg'), 'passport.jpg');
  await identity('POST', '/capture/document', handoff, document);
  const challenge = await identity('POST', '/capture/challenge', handoff);
  let fronts = 0;
  for (const { step, pose } of challenge.steps as { step: number; pose: 'front' | 'left' | 'right' }[]) {
    const name = pose === 'front' ? `front-${++fronts}.jpg` : `${pose}.jpg`;
    const frame = new FormData();
    frame.append('step', String(step));
    frame.append('file', file(name), name);
    await identity('POST', '/capture/selfie', handoff, frame);
  }
  let verification = await identity('GET', `/verifications/${created.id}`, idv);
  const until = Date.now() + 300_000;
  while (verification.status === 'processing') {
    if (Date.now() > until) throw new Error(`verification ${created.id} was not decided within 5 minutes`);
    await new Promise((r) => setTimeout(r, 500));
    verification = await identity('GET', `/verifications/${created.id}`, idv);
  }
  const pipeline = { status: verification.status as string, reason: verification.decision_reason as string | null };
  if (verification.status === 'manual_review') {
    await identity('POST', `/review/${created.id}`, reviewer, {
      decision: 'approve',
      note: 'Demo: the reviewer compared the document and the frames and approves.',
    });
    verification = await identity('GET', `/verifications/${created.id}`, idv);
  }

  // Governance: an agent, its delegation and one sealed decision
  await op('POST', '/governance/agents', {
    profileId: profile.id,
    agentId: 'refund-bot',
    mandate: ['tickets.refund'],
    baseline: { fingerprint: 'fp-1', maxDrift: 0.3 },
  });
  await op('POST', '/governance/delegations', {
    profileId: profile.id,
    agentId: 'refund-bot',
    grantedBy: 'ops@moonlight.example',
    expiresAt: '2030-01-01T00:00:00.000Z',
  });
  const decide = () => call(base, 'POST', '/v1/governance/decisions', gov, refundBotDecision());
  const record = await decide();
  const consistency = await checkLogGrowth(base, gov, decide);

  // The ticketing webhooks (event.published, order.paid): wait until the receiver answered each,
  // or until an attempt found no receiver (the rest would wait out retries; the summary says so).
  type Delivery = { state: 'pending' | 'succeeded' | 'failed'; lastStatusCode: number | null; lastError: string | null };
  const unanswered = (d: Delivery) =>
    d.state !== 'succeeded' && (d.lastError !== null || (d.lastStatusCode !== null && (d.lastStatusCode < 200 || d.lastStatusCode > 299)));
  let deliveries: Delivery[] = [];
  const deliveredBy = Date.now() + 60_000;
  do {
    if (deliveries.length) await new Promise((r) => setTimeout(r, 500));
    deliveries = (await op('GET', `/webhook-deliveries?endpointId=${endpoint.id}`)).data.items;
  } while (
    (deliveries.length < 2 || deliveries.some((d) => d.state === 'pending')) &&
    !deliveries.some(unanswered) &&
    Date.now() < deliveredBy
  );

  return { profile, tk, idv, reviewer, gov, events, published, order, endpoint, deliveries, verification, pipeline, record, consistency };
}

/**
 * Steps 2, 5 and 6 of the governance walk (docs/governance.md): keep a checkpoint, seal another
 * decision, take the newer checkpoint and check offline, with bin/verify-record.js, that it
 * extends the kept one. Two different sizes, or the proof proves nothing. Answers its line.
 */
async function checkLogGrowth(base: string, gov: string, decide: () => Promise<unknown>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'partner-demo-log-'));
  try {
    const kept = await call(base, 'GET', '/v1/governance/log', gov);
    await decide();
    const newer = await call(base, 'GET', '/v1/governance/log', gov);
    const proof = await call(base, 'GET', `/v1/governance/proofs/consistency?from=${kept.tree_size}&to=${newer.tree_size}`, gov);
    writeFileSync(join(dir, 'checkpoint.note'), kept.checkpoint);
    writeFileSync(join(dir, 'checkpoint-new.note'), newer.checkpoint);
    writeFileSync(join(dir, 'consistency.json'), JSON.stringify(proof));
    const args = ['bin/verify-record.js', '--consistency', join(dir, 'checkpoint.note'), join(dir, 'checkpoint-new.note')];
    const verified = spawnSync(process.execPath, [...args, '--verifier-key', kept.verifier_key, '--proof', join(dir, 'consistency.json')], {
      cwd: root,
      encoding: 'utf8',
    });
    if (verified.status !== 0) throw new RequestFailed(`verify-record --consistency exited ${verified.status}: ${verified.stdout}`);
    return verified.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let server: { base: string; token: string; receiver: string; receiverDir?: string; logs?: string };
const own = !options.url;
try {
  if (options.url) {
    const token = process.env.ADMIN_TOKEN;
    if (!token) {
      console.error('ADMIN_TOKEN must be the running server’s operator token (the demo makes the tenant through the operator API).');
      process.exit(2);
    }
    const base = options.url.replace(/\/$/, '');
    if (!(await answers(`${base}/ready`))) {
      console.error(
        `No server answers ${base}/ready; start one (docs/walkthrough.md, "The first five minutes"), or run npm run demo without --url.`,
      );
      process.exit(2);
    }
    // The receiver keeps its files in a directory of its own run, which it prints as RECEIVER
    // (docs/webhooks.md): the endpoint's secret goes there, as the walkthrough saves it.
    server = {
      base,
      token,
      receiver: (options['webhook-url'] ?? 'https://localhost:4000').replace(/\/$/, ''),
      ...(process.env.RECEIVER ? { receiverDir: process.env.RECEIVER } : {}),
    };
  } else {
    server = await ownServer();
  }
  const made = await seed(server.base, server.token, server.receiver, server.receiverDir);
  const b = server.base;
  console.log(
    [
      '',
      `Made on ${b}:`,
      `  profile       ${made.profile.id}  "Moonlight Concerts" (ENTERPRISE)`,
      `  events        ${made.events.map((e) => e.id).join(', ')}`,
      `                ${made.published.id} published, with a ticket type and order ${made.order.id} (2 tickets)`,
      `  webhooks      endpoint ${made.endpoint.id} → ${server.receiver}/ticketing (event.published, order.paid): ` +
        `${made.deliveries.filter((d) => d.state === 'succeeded').length} of ${made.deliveries.length} deliveries succeeded`,
      `  verification  ${made.verification.id}: ${made.verification.status}` +
        (made.pipeline.status === 'manual_review'
          ? ` (the pipeline sent it to review, ${made.pipeline.reason}; the demo's reviewer key approved it)`
          : made.pipeline.reason
            ? ` (${made.pipeline.reason})`
            : ''),
      `  governance    record seq ${made.record.seq}: ${made.record.disposition} for refund-bot's tickets.refund`,
      `  log           ${made.consistency}`,
      '',
      'Keys (shown once, as the API shows them):',
      `  operator      ADMIN_TOKEN=${server.token}`,
      `  ticketing     ${made.tk}`,
      `  identity      ${made.idv} (backend)`,
      `  reviewer      ${made.reviewer}`,
      `  governance    ${made.gov}`,
      '',
      'Look at it:',
      `  ${b}/console/operator   operator console (sign in with the ADMIN_TOKEN above), profile "Moonlight Concerts"`,
      `  ${b}/console/review     reviewer console (sign in with the reviewer key)`,
      `  curl -s ${b}/api/v1/events -H "Authorization: Bearer ${made.tk}" | jq`,
      `  curl -s ${b}/v1/verifications/${made.verification.id} -H "Authorization: Bearer ${made.idv}" | jq`,
      `  curl -s "${b}/admin/v1/webhook-deliveries?profileId=${made.profile.id}" -H "Authorization: Bearer ${server.token}" | jq`,
      `  ${b}/docs             the API reference`,
      ...(server.logs && !options.exit ? [`  ${join(server.logs, 'webhook-receiver.log')}   each webhook delivery, verified`] : []),
    ].join('\n'),
  );
} catch (error) {
  console.error(`demo: ${error instanceof RequestFailed ? error.message : (error as Error).stack}`);
  stopChildren();
  process.exit(1);
}

if (own && !options.exit) {
  console.log('\nThe server keeps running; Ctrl-C stops it and deletes its data.');
  const stop = () => {
    stopChildren();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  stopChildren();
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}
