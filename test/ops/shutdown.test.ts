import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStore, type Store } from '../../bench/seed.js';
import { socketDevice } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/** Sends a request whose body arrives in two halves, so the test decides when it completes. */
function slowRequest(port: number, body: string) {
  const half = Math.floor(body.length / 2);
  let finish!: () => void;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/admin/v1/profiles',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${ADMIN_TOKEN}` },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, half));
    finish = () => req.end(body.slice(half));
  });
  return { response, finish: () => finish() };
}

/** Resolves when the server logs a line that `matches` (its log lines are read as they come). */
function logged(server: ServerProcess, matches: (line: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (!server.logs.some(matches)) return;
      server.child.stdout!.off('data', look);
      resolve();
    };
    // Registered after the reader of server-process.ts, so `logs` already holds the new lines.
    server.child.stdout!.on('data', look);
    look();
  });
}

describe('graceful shutdown of the server process', () => {
  let finishedProfileId = '';
  // A fresh database of the suite's kind: its own PostgreSQL database, or an embedded one.
  let store: Store;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    store = await createStore();
  });
  afterAll(async () => {
    server?.cleanup();
    await store?.drop();
  });

  it('on SIGTERM stops accepting, finishes the in-flight request, and exits 0', async () => {
    server = await startServerProcess({ ...store.env, ADMIN_TOKEN, SHUTDOWN_GRACE_MS: '5000' });
    const { port } = server;
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);

    const arrived = logged(server, (line) => line.includes('incoming request') && line.includes('"url":"/admin/v1/profiles"'));
    const inFlight = slowRequest(port, JSON.stringify({ name: 'Finished during shutdown', plan: 'PRO' }));
    await arrived; // the server has the request and waits for the rest of its body
    server.child.kill('SIGTERM');
    // No longer accepting, yet still running: it waits for the request.
    await vi.waitFor(() => expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow(), { timeout: 5_000, interval: 50 });
    expect(server.child.exitCode).toBeNull();

    inFlight.finish();
    const res = await inFlight.response;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).data.name).toBe('Finished during shutdown');
    finishedProfileId = JSON.parse(res.body).data.id;
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.logs.some((l) => l.includes('shut down cleanly'))).toBe(true);
  }, 120_000);

  it('on SIGINT of an idle server exits 0 promptly, and the data outlives the process', async () => {
    server?.cleanup();
    server = await startServerProcess({ ...store.env, ADMIN_TOKEN });
    // The request finished during the last shutdown was committed.
    const res = await fetch(`http://127.0.0.1:${server.port}/admin/v1/profiles/${finishedProfileId}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const started = performance.now();
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 120_000);
});

/**
 * A hard kill must not lose queued work: the identity decision pipeline queued by the last
 * selfie is run by the next process. (A job killed mid-run is retaken once its lease runs out:
 * test/jobs/jobs.test.ts moves the clock past the lease.)
 */
describe('a hard kill of the server process', () => {
  let store: Store;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    store = await createStore();
  });
  afterAll(async () => {
    server?.cleanup();
    await store?.drop();
  });

  const env = () => ({ ...store.env, ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });

  it('runs the job queued before the kill once the server is back', async () => {
    // No identity slots in the first process: the pipeline job queued below stays queued until the process is killed.
    server = await startServerProcess({ ...env(), JOBS_IDENTITY_CONCURRENCY: '0' });
    const base = `http://127.0.0.1:${server.port}`;
    const admin = async (path: string, body: unknown) => {
      const res = await fetch(`${base}/admin/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const profile = await admin('/profiles', { name: 'Kill test', plan: 'ENTERPRISE' });
    const key = await admin('/api-keys', { service: 'identity', profileId: profile.data.id, role: 'backend' });
    const backend = { authorization: `Bearer ${key.data.key}` };
    const created = await fetch(`${base}/v1/verifications`, {
      method: 'POST',
      headers: { ...backend, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_url: 'https://127.0.0.1:9/hooks/identity', reference: 'kill-9' }),
    });
    expect(created.status).toBe(201);
    const verification = (await created.json()) as { id: string; handoff_token: string };
    const device = socketDevice(base, verification.handoff_token);
    await device.upload('document', png(640, 480, { seed: 1 }));
    const challenge = await device.challenge();
    for (const { step } of challenge.steps) await device.upload('selfie', png(640, 480, { seed: 10 + step }), { step: String(step) });
    const status = async () =>
      ((await (await fetch(`${base}/v1/verifications/${verification.id}`, { headers: backend })).json()) as { status: string }).status;
    expect(await status()).toBe('processing');

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');

    server = await startServerProcess({ ...env(), JOBS_POLL_INTERVAL_MS: '100' });
    const restarted = `http://127.0.0.1:${server.port}`;
    await vi.waitFor(
      async () => {
        const res = await fetch(`${restarted}/v1/verifications/${verification.id}`, { headers: backend });
        expect(((await res.json()) as { status: string }).status).toBe('approved');
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 180_000);
});
