import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { refundBotDecision } from '../../scripts/fixtures/refund-bot.js';
import { buildGoVerifier } from '../governance/go-tlog.js';
import { mth } from '../governance/rfc9162.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { makeCertificate, startReceiver, type Receiver } from '../helpers/receivers.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * The server on a PostgreSQL cluster that fails over (docs/failover.md): Patroni with three members
 * and synchronous replication, HAProxy in front (scripts/failover/cluster.sh, run by
 * `npm run test:failover`, which sets FAILOVER_CLUSTER). Under a mixed load — orders, governance
 * decisions being sealed, identity captures decided by the pipeline, webhook deliveries — the
 * leader dies as its machine would: its PostgreSQL and its Patroni agent killed with SIGKILL, so a
 * standby must be promoted. Then:
 * - every answer during the failover is a 2xx, a 4xx or a 503 (never a 500, never a dropped connection);
 * - writes succeed again within 30 s of the kill;
 * - every acknowledged write is there afterwards: each 2xx order, each sealed record (the chain
 *   gapless, the transparency log's checkpoint over exactly those records, verified by Go's
 *   sumdb code), each accepted capture decided; and every webhook delivered at least once.
 */
interface Cluster {
  databaseUrl: string;
  members: { name: string; restApi: string; dataDir: string; patroniPidFile: string }[];
}
const cluster: Cluster | undefined = process.env.FAILOVER_CLUSTER ? JSON.parse(process.env.FAILOVER_CLUSTER) : undefined;

const ROOT = join(import.meta.dirname, '../..');
const WALKTHROUGH = join(ROOT, 'test/fixtures/walkthrough');
/** Load before the kill, so the leader dies mid-stream. */
const BEFORE_KILL_MS = 8_000;
/** Load after writes work again, so the new leader carries some too. */
const AFTER_RECOVERY_MS = 8_000;

interface Answer {
  status: number | 'network error';
  body: any;
  /** When the request was sent and when its answer came. */
  sentAt: number;
  at: number;
  what: string;
}

describe.runIf(cluster)('failover of the PostgreSQL leader under load', () => {
  let server: ServerProcess;
  let receiver: Receiver;
  let work: string;
  let base: string;
  const answers: Answer[] = [];

  async function call(what: string, method: string, path: string, bearer: string, body?: unknown, headers: Record<string, string> = {}) {
    const form = body instanceof FormData;
    let answer: Answer;
    const sentAt = Date.now();
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      answer = { status: res.status, body: text && text.startsWith('{') ? JSON.parse(text) : text, sentAt, at: Date.now(), what };
    } catch (err) {
      answer = { status: 'network error', body: String(err), sentAt, at: Date.now(), what };
    }
    answers.push(answer);
    return answer;
  }
  const ok = (a: Answer) => typeof a.status === 'number' && a.status >= 200 && a.status < 300;
  /** A call of the set-up, which must succeed. */
  async function must(what: string, method: string, path: string, bearer: string, body?: unknown, headers?: Record<string, string>) {
    const a = await call(what, method, path, bearer, body, headers);
    if (!ok(a)) throw new Error(`${what}: ${method} ${path} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
    return a.body;
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'failover-'));
    const certificate = await makeCertificate();
    writeFileSync(join(work, 'ca.pem'), certificate.cert);
    receiver = await startReceiver(certificate);
    server = await startServerProcess({
      DATABASE_URL: cluster!.databaseUrl,
      ADMIN_TOKEN,
      NODE_EXTRA_CA_CERTS: join(work, 'ca.pem'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '1000,2000,4000,8000,15000',
    });
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);
  afterAll(async () => {
    // For a run looped by hand: the server's whole log, to set beside the cluster's (scripts/failover-test.sh keeps both when FAILOVER_KEEP_LOGS names a directory).
    if (server && process.env.FAILOVER_KEEP_LOGS)
      writeFileSync(join(process.env.FAILOVER_KEEP_LOGS, 'server.log'), server.logs.join('\n') + '\n');
    server?.cleanup();
    await receiver?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('answers only 2xx, 4xx and 503, serves again within 30 s and keeps every acknowledged write', async () => {
    // A tenant with a key of each service, a published event with a ticket type, a webhook endpoint, a governed agent.
    const op = (what: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      must(what, method, `/admin/v1${path}`, ADMIN_TOKEN, body, headers);
    const profile = (await op('profile', 'POST', '/profiles', { name: 'Failover Hall', plan: 'ENTERPRISE' })).data;
    const key = async (body: Record<string, unknown>) =>
      (await op('key', 'POST', '/api-keys', { profileId: profile.id, ...body })).data.key as string;
    const ticketingKey = await key({ service: 'ticketing', scopes: ['events:read', 'events:write', 'orders:read'] });
    const identityKey = await key({ service: 'identity', role: 'backend' });
    const governanceKey = await key({ service: 'governance', scopes: ['governance:decide', 'governance:read'] });
    // The checks after the load read with keys of their own: the load's keys may be at their
    // per-minute limit by then (a 429 is an allowed answer under load, not for the checks).
    const governanceReader = await key({ service: 'governance', scopes: ['governance:read'] });
    const identityReader = await key({ service: 'identity', role: 'backend' });
    const venue = (
      await op('venue', 'POST', `/profiles/${profile.id}/venues`, {
        name: 'Failover Hall',
        address: 'Kai 4',
        city: 'Hamburg',
        lat: 53.54,
        lng: 9.98,
        timezone: 'Europe/Berlin',
      })
    ).data;
    await op('endpoint', 'POST', `/profiles/${profile.id}/webhook-endpoints`, { url: receiver.url('/ticketing'), events: ['order.paid'] });
    const event = (
      await must('event', 'POST', '/api/v1/events', ticketingKey, {
        name: 'Failover Night',
        description: 'The leader goes, the music stays',
        address: 'Kai 4',
        lat: 53.54,
        lng: 9.98,
        categories: ['music'],
        placeId: venue.id,
        eventStartsAt: '2030-03-01T19:00:00.000Z',
        timezone: 'Europe/Berlin',
      })
    ).data;
    const ticketType = (
      await op('ticket type', 'POST', `/events/${event.id}/ticket-types`, {
        name: 'Standing',
        kind: 'STANDARD',
        price: '25.00',
        quantity: 100_000,
      })
    ).data;
    await op('publish', 'POST', `/events/${event.id}/publish`);
    await op('agent', 'POST', '/governance/agents', {
      profileId: profile.id,
      agentId: 'refund-bot',
      mandate: ['tickets.refund'],
      baseline: { fingerprint: 'fp-1', maxDrift: 0.3 },
    });
    await op('delegation', 'POST', '/governance/delegations', {
      profileId: profile.id,
      agentId: 'refund-bot',
      grantedBy: 'ops@failover.example',
      expiresAt: '2035-01-01T00:00:00.000Z',
    });
    const setUpAnswers = answers.length;

    const orders: string[] = [];
    const records: { seq: number; record_id: string }[] = [];
    const captures: string[] = [];
    let loading = true;

    async function orderLoop() {
      while (loading) {
        const a = await call(
          'order',
          'POST',
          `/admin/v1/events/${event.id}/orders`,
          ADMIN_TOKEN,
          {
            items: [{ ticketTypeId: ticketType.id, quantity: 1 }],
            buyer: { name: 'Ada Lovelace', email: 'ada@example.com' },
            status: 'CONFIRMED',
          },
          { 'idempotency-key': randomUUID() },
        );
        if (ok(a)) orders.push(a.body.data.id);
        else await pause(200);
      }
    }
    async function decisionLoop() {
      while (loading) {
        const a = await call('decision', 'POST', '/v1/governance/decisions', governanceKey, refundBotDecision());
        if (ok(a)) records.push({ seq: a.body.seq, record_id: a.body.record_id });
        else await pause(200);
      }
    }
    const image = (name: string) => new Blob([readFileSync(join(WALKTHROUGH, name))], { type: 'image/jpeg' });
    const form = (fields: Record<string, string | [Blob, string]>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields))
        if (typeof v === 'string') f.append(k, v);
        else f.append(k, v[0], v[1]);
      return f;
    };
    /** One capture from start to its last frame; counted once the last frame was accepted. */
    async function captureOnce(): Promise<void> {
      const created = await call('verification', 'POST', '/v1/verifications', identityKey, { webhook_url: receiver.url('/identity') });
      if (!ok(created)) return;
      const handoff = created.body.handoff_token as string;
      if (!ok(await call('document', 'POST', '/v1/capture/document', handoff, form({ file: [image('passport.jpg'), 'passport.jpg'] }))))
        return;
      const challenge = await call('challenge', 'POST', '/v1/capture/challenge', handoff);
      if (!ok(challenge)) return;
      let fronts = 0;
      let last: Answer | undefined;
      for (const { step, pose } of challenge.body.steps as { step: number; pose: 'front' | 'left' | 'right' }[]) {
        const name = pose === 'front' ? `front-${++fronts}.jpg` : `${pose}.jpg`;
        last = await call('selfie', 'POST', '/v1/capture/selfie', handoff, form({ step: String(step), file: [image(name), name] }));
        if (!ok(last)) return;
      }
      if (last && ok(last)) captures.push(created.body.id);
    }
    async function captureLoop() {
      while (loading) {
        const before = captures.length;
        await captureOnce();
        if (captures.length === before) await pause(200);
      }
    }

    const loops = [orderLoop(), orderLoop(), decisionLoop(), decisionLoop(), captureLoop()];
    await pause(BEFORE_KILL_MS);
    expect(orders.length, 'orders before the kill').toBeGreaterThan(0);
    expect(records.length, 'records before the kill').toBeGreaterThan(0);

    // The leader dies as its machine would: its Patroni agent and its PostgreSQL, both SIGKILL.
    const leader = await leaderName();
    const member = cluster!.members.find((m) => m.name === leader)!;
    const killedAt = Date.now();
    process.kill(Number(readFileSync(member.patroniPidFile, 'utf8').trim()), 'SIGKILL');
    process.kill(Number(readFileSync(join(member.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');

    // Service again: the first write sent after the kill that was acknowledged, by any loop.
    const written = (a: Answer) => ok(a) && (a.what === 'order' || a.what === 'decision') && a.sentAt >= killedAt;
    const servingBy = killedAt + 60_000;
    while (!answers.some(written) && Date.now() < servingBy) await pause(100);
    const firstWrite = answers.find(written);
    const backAfterMs = firstWrite ? firstWrite.at - killedAt : Number.POSITIVE_INFINITY;
    await pause(AFTER_RECOVERY_MS);
    loading = false;
    await Promise.all(loops);
    const newLeader = await leaderName(leader);

    const exit = await Promise.race([server.exited, pause(0).then(() => null)]);
    expect(exit, `the server process ended: ${server.logs.slice(-5).join('\n')}\n${server.stderr()}`).toBeNull();
    // Only 2xx, 4xx and 503 while it happened.
    const load = answers.slice(setUpAnswers);
    const bad = load.filter((a) => a.status === 'network error' || (a.status >= 500 && a.status !== 503));
    const unavailable = load.filter((a) => a.status === 503).length;
    console.log(
      `failover: leader ${leader} killed; ${newLeader} leads; writes again after ${(backAfterMs / 1000).toFixed(1)} s; ` +
        `${load.length} answers (${unavailable} × 503): ${orders.length} orders, ${records.length} records, ${captures.length} captures acknowledged`,
    );
    // A 500's cause is in the server's log (level 50), never in its answer.
    const errors = server.logs.filter((l) => l.includes('"level":50')).map((l) => l.slice(0, 1200));
    expect(
      bad.map((a) => `${a.what} ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`),
      errors.join('\n'),
    ).toEqual([]);
    expect(newLeader).not.toBe(leader);
    expect(backAfterMs).toBeLessThan(30_000);

    // Every acknowledged order is there: the event's orders read a page of 100 at a time (one
    // request per order would run into the key's 120 requests a minute).
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const list = (await must('orders', 'GET', `/api/v1/events/${event.id}/orders?limit=100&page=${page}`, ticketingKey)).data;
      for (const o of list.items) stored.add(o.id);
      if (page * list.limit >= list.total) break;
    }
    expect(orders.filter((id) => !stored.has(id))).toEqual([]);

    // Every sealed record is in the chain, the chain has no gap, and the log's checkpoint covers exactly it.
    const chain: any[] = [];
    for (let after = 0; ;) {
      const page = await must('records', 'GET', `/v1/governance/records?after_seq=${after}&limit=1000`, governanceReader);
      chain.push(...page.records);
      if (page.next_after_seq === null) break;
      after = page.next_after_seq;
    }
    expect(chain.map((r) => r.seq)).toEqual(chain.map((_, i) => i + 1));
    const sealed = new Map(chain.map((r) => [r.record_id, r.seq]));
    for (const r of records) expect(sealed.get(r.record_id), `record ${r.record_id}`).toBe(r.seq);
    const chainFile = join(work, 'chain.json');
    writeFileSync(chainFile, JSON.stringify(chain));
    const { keys } = await must('keys', 'GET', '/v1/crypto/keys', governanceReader);
    // Exit code 0: every signature holds and each record links to the one before it.
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'bin/verify-record.js'), chainFile, '--chain', '--public-key', keys.find((k: any) => k.status === 'current').public_key],
      { cwd: ROOT },
    );
    const log = await must('log', 'GET', '/v1/governance/log', governanceReader);
    expect(log.tree_size).toBe(chain.length);
    const root = Buffer.from(log.checkpoint.split('\n')[2], 'base64');
    expect(root.equals(mth(chain.map((r) => Buffer.from(canonicalJson(r), 'utf8'))))).toBe(true);
    const go = await buildGoVerifier();
    try {
      const verdicts = await go.run({ verifier_key: log.verifier_key, checkpoints: [log.checkpoint] });
      expect(verdicts.checkpoints).toEqual([{ ok: true }]);
    } finally {
      go.remove();
    }

    // Every accepted capture is decided (the pipeline's jobs survived the failover).
    const decidedBy = Date.now() + 120_000;
    const undecided = new Set(captures);
    while (undecided.size > 0 && Date.now() < decidedBy) {
      for (const id of [...undecided]) {
        const a = await call('read verification', 'GET', `/v1/verifications/${id}`, identityReader);
        if (ok(a) && a.body.status !== 'processing') undecided.delete(id);
      }
      if (undecided.size > 0) await pause(1000);
    }
    expect([...undecided]).toEqual([]);

    // Every webhook delivered at least once: an order.paid for each order, a decision for each capture.
    const deliveredBy = Date.now() + 120_000;
    const missing = () => {
      const bodies = receiver.received.map((r) => r.body);
      return [
        ...orders.filter((id) => !bodies.some((b) => b.includes(id))).map((id) => `order ${id}`),
        ...captures.filter((id) => !bodies.some((b) => b.includes(id))).map((id) => `verification ${id}`),
      ];
    };
    while (missing().length > 0 && Date.now() < deliveredBy) await pause(1000);
    expect(missing()).toEqual([]);
  }, 600_000);
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The member Patroni names leader (other than `not`), asked of any member that answers. */
async function leaderName(not?: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    for (const m of cluster!.members) {
      try {
        const res = await fetch(`${m.restApi}/cluster`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { members: { name: string; role: string; state: string }[] };
        const leader = body.members.find((x) => x.role === 'leader' && x.state === 'running' && x.name !== not);
        if (leader) return leader.name;
      } catch {
        // This member is down: ask the next.
      }
    }
    await pause(500);
  }
  throw new Error('no member names a running leader');
}
