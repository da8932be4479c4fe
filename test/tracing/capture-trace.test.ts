import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from '../../src/tracing/start.js';
import { ADMIN_TOKEN, createPostgresDatabase } from '../helpers/app.js';
import { multipart, passportMrz, file, type Part } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { makeCertificate, startReceiver, type Receiver } from '../helpers/receivers.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

describe('tracing off', () => {
  it('loads nothing without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_TRUST_INCOMING_CONTEXT: false })).toBeUndefined();
  });
});

describe('a trace of one identity capture, from upload to webhook, in a real server process', () => {
  let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let receiver: Receiver;
  let server: ServerProcess;
  let dir: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let base: string;

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    const certificate = await makeCertificate();
    receiver = await startReceiver(certificate);
    dir = mkdtempSync(join(tmpdir(), 'tracing-'));
    writeFileSync(join(dir, 'ca.pem'), certificate.cert);
    const env: Record<string, string> = {
      ADMIN_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'partner-services-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      // The receiver's self-signed certificate, trusted by the server's deliveries.
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      JOBS_POLL_INTERVAL_MS: '100',
      CAPTURE_RATE_LIMIT_PER_MINUTE: '100000',
      IDENTITY_RATE_LIMIT_PER_MINUTE: '100000',
    };
    if (process.env.DATABASE_URL) {
      const created = await createPostgresDatabase(process.env.DATABASE_URL);
      env.DATABASE_URL = created.url;
      dropDatabase = created.drop;
    }
    server = await startServerProcess(env);
    base = `http://127.0.0.1:${server.port}`;
  }, 90_000);

  afterAll(async () => {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
      server.cleanup();
    }
    await receiver?.close();
    await collector?.close();
    await dropDatabase?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, token: string, body?: object) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  async function upload(path: string, token: string, parts: Part[]) {
    const form = multipart(parts);
    const res = await fetch(`${base}/v1/capture/${path}`, {
      method: 'POST',
      headers: { ...form.headers, authorization: `Bearer ${token}` },
      body: form.payload,
    });
    expect(res.status, await res.text()).toBe(201);
  }

  async function until<T>(what: string, find: () => T | undefined, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; spans: ${collector.spans.map((s) => s.name).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('shows the pipeline job, the fan-out and the delivery under the upload that queued them, with their queries', async () => {
    const profile = await call('POST', '/admin/v1/profiles', ADMIN_TOKEN, { name: 'Traced', plan: 'ENTERPRISE' });
    const key = await call('POST', '/admin/v1/api-keys', ADMIN_TOKEN, { service: 'identity', profileId: profile.data.id, role: 'backend' });
    const v = await call('POST', '/v1/verifications', key.data.key, { webhook_url: receiver.url('/traced'), reference: 'trace-1' });
    const token = v.handoff_token as string;
    await upload('document', token, [file(png(640, 480, { seed: 4242 })), { name: 'mrz', value: passportMrz() }]);
    const challenge = await call('POST', '/v1/capture/challenge', token);
    for (const { step } of challenge.steps as { step: number }[]) {
      await upload('selfie', token, [{ name: 'step', value: String(step) }, file(png(640, 480, { seed: 5000 + step }))]);
    }
    await until('the decision webhook', () => receiver.received.find((r) => r.path === '/traced'));

    const spans = collector.spans;
    const byId = new Map<string, ReceivedSpan>();
    const refresh = () => spans.forEach((s) => byId.set(s.spanId, s));
    const named = (name: string) => spans.find((s) => s.name === name);
    const delivery = await until('the delivery span', () => named('process webhooks.deliver'));
    const fanout = await until('the fan-out span', () => named('process webhooks.fanout'));
    const pipeline = await until('the pipeline span', () => named('process identity.pipeline'));

    /** The span's ancestors, nearest first, once every one of them has arrived. */
    const ancestors = async (span: ReceivedSpan) =>
      until(`the ancestors of ${span.name}`, () => {
        refresh();
        const chain: ReceivedSpan[] = [];
        let at = span;
        while (at.parentSpanId) {
          const parent = byId.get(at.parentSpanId);
          if (!parent) return undefined;
          chain.push(parent);
          at = parent;
        }
        return chain;
      });

    // One trace, rooted at the request that queued the decision.
    for (const s of [pipeline, fanout, delivery]) expect(s.traceId).toBe(pipeline.traceId);
    const pipelineChain = await ancestors(pipeline);
    const root = pipelineChain.at(-1)!;
    expect(root.kind).toBe(2); // SERVER
    expect(root.attributes['http.route']).toBe('/v1/capture/selfie');
    expect(root.attributes['http.request.method']).toBe('POST');
    expect(root.service).toBe('partner-services-under-test');
    // The delivery descends from the fan-out, which descends from the pipeline.
    expect((await ancestors(fanout)).map((s) => s.spanId)).toContain(pipeline.spanId);
    expect((await ancestors(delivery)).map((s) => s.spanId)).toContain(fanout.spanId);
    for (const s of [pipeline, fanout, delivery]) {
      expect(s.kind).toBe(5); // CONSUMER
      expect(s.attributes['messaging.system']).toBe('jobs');
    }
    expect(delivery.attributes['messaging.destination.name']).toBe('webhooks.deliver');
    // The database's work shows inside the request and the jobs that did it (the pg driver's spans;
    // the embedded database runs in the process, with no driver to trace).
    const queriesUnder = (parent: ReceivedSpan) =>
      spans.filter(
        (s) => s.parentSpanId === parent.spanId && s.name.startsWith('pg.query:') && s.attributes['db.system.name'] === 'postgresql',
      );
    if (process.env.DATABASE_URL) {
      for (const job of [pipeline, fanout, delivery]) await until(`a query under ${job.name}`, () => queriesUnder(job)[0]);
      expect(queriesUnder(pipelineChain[0]!).length).toBeGreaterThan(0);
    } else {
      expect(spans.filter((s) => s.name.startsWith('pg.'))).toEqual([]);
    }
    // Probes and scrapes are not traced.
    await fetch(`${base}/health`);
    expect(spans.some((s) => s.attributes['http.route'] === '/health')).toBe(false);
  }, 90_000);
});
