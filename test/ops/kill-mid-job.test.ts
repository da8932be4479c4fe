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
 * kill -9 while a job runs: a webhook delivery hangs on its receiver, the process dies, and
 * the next process delivers it once the lease of the dead one has run out.
 */
describe.runIf(process.env.DATABASE_URL)('a job cut off by kill -9 (PostgreSQL)', () => {
  const certificate = useCertificate();
  const receiver = useReceiver(certificate);
  let store: Store;
  let server: ServerProcess | undefined;
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

    server.child.kill('SIGKILL'); // mid-attempt: the receiver holds the request open
    await server.exited;

    const db = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await db.connect();
    try {
      const running = await db.query(`select id from jobs where state = 'running'`);
      expect(running.rows).toHaveLength(1);
      // The dead process's lease (60 s) runs out; the test does not wait for it.
      await db.query(`update jobs set locked_until = now() - interval '1 second' where state = 'running'`);
    } finally {
      await db.end();
    }

    receiver.fallback = 200;
    server = await startServerProcess(env);
    await vi.waitFor(
      async () => {
        const delivery = await admin('GET', `/webhook-deliveries/${sent.data.deliveryId}`);
        expect(delivery.data.state).toBe('succeeded');
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body); // the same signed event, again
  }, 180_000);
});
