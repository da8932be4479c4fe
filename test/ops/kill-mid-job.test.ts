import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStore, type Store } from '../../bench/seed.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * kill -9 while a job runs: a webhook delivery hangs on its receiver in process A, which renews
 * its lease while B runs beside it and leaves the job alone; A dies, and B delivers it within
 * 20 s of A's last renewal (a lease of 15 s, then B's poll), with nobody moving the clock.
 */
describe.runIf(process.env.DATABASE_URL)('a job cut off by kill -9 (PostgreSQL)', () => {
  const certificate = useCertificate();
  const receiver = useReceiver(certificate);
  let store: Store;
  let server: ServerProcess | undefined;
  let other: ServerProcess | undefined;
  let certDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    store = await createStore();
    certDir = mkdtempSync(join(tmpdir(), 'kill-ca-'));
    writeFileSync(join(certDir, 'ca.pem'), certificate.cert);
    env = {
      ...store.env,
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_TIMEOUT_MS: '60000',
      JOBS_POLL_INTERVAL_MS: '100',
      // The child trusts the receiver's self-signed certificate like a system CA.
      NODE_EXTRA_CA_CERTS: join(certDir, 'ca.pem'),
    };
  });
  afterAll(async () => {
    server?.cleanup();
    other?.cleanup();
    await store?.drop();
    rmSync(certDir, { recursive: true, force: true });
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${server!.port}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as any;
  };

  it('delivers the webhook whose delivery was in flight when the process was killed', async () => {
    server = await startServerProcess(env);
    const profile = await admin('POST', '/profiles', { name: 'Kill mid-job', plan: 'ENTERPRISE' });
    const endpoint = await admin('POST', `/profiles/${profile.data.id}/webhook-endpoints`, { url: receiver.url('/hook') });
    expect(endpoint.success).toBe(true);
    receiver.plan('hang');
    const sent = await admin('POST', `/webhook-endpoints/${endpoint.data.id}/test`);
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 10_000, interval: 20 });

    const db = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await db.connect();
    try {
      const lease = async () => {
        const running = await db.query<{ locked_until: Date }>(`select locked_until from jobs where state = 'running'`);
        expect(running.rows).toHaveLength(1);
        return running.rows[0]!.locked_until.getTime();
      };
      other = await startServerProcess(env);
      // A renews while B polls beside it (every 100 ms): B must leave the job alone.
      const firstLease = await lease();
      await vi.waitFor(async () => expect(await lease()).toBeGreaterThan(firstLease), { timeout: 10_000, interval: 100 });
      expect(receiver.received).toHaveLength(1);

      receiver.fallback = 200;
      server.child.kill('SIGKILL'); // mid-attempt: the receiver holds the request open
      await server.exited;
      // The last renewal A made is the lease it left behind, less the lease's 15 s.
      const lastRenewal = (await lease()) - 15_000;
      await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 25_000, interval: 50 });
      expect(Date.now() - lastRenewal).toBeLessThan(20_000);
    } finally {
      await db.end();
    }
    server = other;
    other = undefined;
    await vi.waitFor(
      async () => {
        const delivery = await admin('GET', `/webhook-deliveries/${sent.data.deliveryId}`);
        expect(delivery.data.state).toBe('succeeded');
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body); // the same signed event, again
  }, 180_000);
});
