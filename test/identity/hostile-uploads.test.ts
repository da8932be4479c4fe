import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../bench/seed.js';
import {
  HOSTILE_AFTERMATH_SLACK_MS,
  HOSTILE_CASES,
  HOSTILE_DECIDE_LIMIT_MS,
  HOSTILE_RSS_RISE_LIMIT_MB,
  measureHostileUploads,
  type HostileResult,
} from '../../bench/hostile-uploads.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { HIGH_LIMITS } from '../helpers/identity.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Nothing an upload contains ends the server (docs/identity.md, "Bounded identity work"): a real server
 * process with its engines on (document reading and face checks), real sockets, and the uploads an
 * outside tester used to end it — the 350×114,000 blank PNG that the reader enlarged past 10 GB —
 * besides other long, large, cut-off and lying images. On the embedded store and on PostgreSQL.
 */
describe('hostile uploads against a server process with its engines on', { timeout: 600_000 }, () => {
  let store: Store;
  let server: ServerProcess;
  let result: HostileResult;

  beforeAll(async () => {
    store = await createStore();
    server = await startServerProcess(
      {
        ...store.env,
        ...HIGH_LIMITS,
        ADMIN_TOKEN,
        FACE_CHECKS: 'on',
        DOCUMENT_READING: 'on',
        // Below the 15 s this test allows for a decision, with room for the upload and the queue; the
        // default (12 s) is for a machine not also running the test.
        DOCUMENT_READ_TIMEOUT_MS: '8000',
        JOBS_POLL_INTERVAL_MS: '100',
        // The verifications' webhook_url points at a closed local port.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      },
      { listenTimeoutMs: 240_000 },
    );
    const base = `http://127.0.0.1:${server.port}`;
    const admin = async (path: string, body: unknown) => {
      const res = await fetch(`${base}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { data: Record<string, string> }).data;
    };
    const profile = await admin('/profiles', { name: 'Hostile uploads', plan: 'ENTERPRISE' });
    const { key } = await admin('/api-keys', { service: 'identity', profileId: profile.id, role: 'backend' });
    result = await measureHostileUploads(base, server.child.pid!, key!, (m) => process.stderr.write(`${m}\n`));
  }, 600_000);

  afterAll(async () => {
    server?.cleanup();
    await store?.drop();
  });

  it('refuses the long strips at upload with 422, as file and as back, and the 40-megapixel line', () => {
    for (const name of ['350×114,000 blank PNG as back', '350×114,000 blank PNG as file', '1×40,000,000 PNG']) {
      const outcome = result.cases.find((c) => c.name === name)!;
      expect(outcome, name).toMatchObject({ upload: 422, detail: expect.stringMatching(/longer side may be at most 12000 pixels/) });
    }
  });

  it(`decides the large, cut-off and lying images within ${HOSTILE_DECIDE_LIMIT_MS / 1000} s, in manual review (noise as a photo with no zone, not at the reading deadline)`, () => {
    const decided = result.cases.filter((c) => c.upload === 201);
    expect(decided.map((c) => c.name)).toEqual(HOSTILE_CASES.slice(3).map((c) => c.name));
    for (const c of decided) {
      expect(c.decideMs, c.name).toBeLessThan(HOSTILE_DECIDE_LIMIT_MS);
      expect(c, c.name).toMatchObject({ status: 'manual_review', reason: HOSTILE_CASES.find((h) => h.name === c.name)!.decidedAs });
    }
  });

  it(`keeps the process alive within ${HOSTILE_RSS_RISE_LIMIT_MB} MiB of its resting size, and an ordinary verification 2 s later in its usual time + 3 s`, () => {
    expect(result.alive).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(result.peakRssMb - result.restingRssMb).toBeLessThan(HOSTILE_RSS_RISE_LIMIT_MB);
    expect(result.afterMs).toBeLessThan(result.usualMs + HOSTILE_AFTERMATH_SLACK_MS);
  });
});
