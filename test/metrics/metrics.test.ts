import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { api, captureAll, file, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { goodDecision, governedTenant, call } from '../helpers/governance.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { useTestApp } from '../helpers/suite.js';
import { usingPostgres, type TestContext } from '../helpers/app.js';
import { later, newProfile, publish, register, TEST_DELAYS } from '../helpers/webhooks.js';
import { sample, samples } from './exposition.js';

const TOKEN = 'metrics-token-0123456789';

async function scrape(ctx: TestContext): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('metrics without METRICS_TOKEN', () => {
  const { ctx } = useTestApp();

  it('do not exist: /metrics answers 404 with or without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const withToken = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.statusCode).toBe(404);
  });

  it('refuse a METRICS_TOKEN shorter than 16 characters, naming it on one line', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/^invalid configuration: METRICS_TOKEN: at least 16 characters$/);
  });
});

describe('metrics with METRICS_TOKEN and the default brake on failed authentication', () => {
  const { ctx } = useTestApp(() => ({ env: { METRICS_TOKEN: TOKEN } }));

  it('counts wrong and missing tokens toward the per-IP authentication brake: 429 with Retry-After after 30', async () => {
    const guesser = '198.51.100.23';
    const scrapeFrom = (remoteAddress: string, authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
    for (let i = 0; i < 15; i++) expect((await scrapeFrom(guesser, `Bearer metrics-guess-${i}-000000000000`)).statusCode).toBe(401);
    for (let i = 0; i < 15; i++) expect((await scrapeFrom(guesser)).statusCode).toBe(401);
    const braked = await scrapeFrom(guesser, `Bearer metrics-guess-31-000000000000`);
    expect(braked.statusCode).toBe(429);
    expect(Number(braked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(braked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(braked.body).not.toContain('http_server_request_duration_seconds');
    // Braked means braked: even the right token waits, so a guess that happens to be right tells nothing.
    expect((await scrapeFrom(guesser, `Bearer ${TOKEN}`)).statusCode).toBe(429);
    // Another address scrapes as before.
    expect((await scrapeFrom('198.51.100.24', `Bearer ${TOKEN}`)).statusCode).toBe(200);
    // The brake is shared by every API: the guesser is braked on the operator API too.
    const admin = await ctx.app.inject({
      method: 'GET',
      url: '/admin/v1/profiles',
      remoteAddress: guesser,
      headers: { authorization: 'Bearer x' },
    });
    expect(admin.statusCode).toBe(429);
    // Once the window is over the right token reads the metrics again.
    ctx.clock.advance(61_000);
    expect((await scrapeFrom(guesser, `Bearer ${TOKEN}`)).statusCode).toBe(200);
  });
});

describe('metrics with METRICS_TOKEN', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx, idv, gov } = useTestApp(
    () => ({
      env: { ...HIGH_LIMITS, METRICS_TOKEN: TOKEN, WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS, WEBHOOK_TIMEOUT_MS: '1500' },
      webhooks: { ca: cert.cert },
    }),
    { idv: identityTenant, gov: governedTenant },
  );

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer metrics-token-wrong-0000' }],
    ['the token with another scheme', { authorization: `Basic ${TOKEN}` }],
    ['the admin token', { authorization: 'Bearer test-admin-token-0123456789abcdef' }],
  ])('answers 401 to %s, with a Bearer challenge and no metrics', async (_, headers) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(res.body).not.toContain('http_server_request_duration_seconds');
  });

  it('answers 401 to the token in the query string: only the header is read', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: `/metrics?token=${TOKEN}` })).statusCode).toBe(401);
  });

  it('reports the job lanes from the table: queued and the oldest due age, every lane present', async () => {
    const first = await scrape(ctx);
    for (const lane of ['identity', 'deliveries', 'housekeeping']) {
      expect(sample(first, 'jobs_queued', { lane })).toBeGreaterThanOrEqual(0);
      expect(sample(first, 'jobs_running', { lane })).toBe(0);
    }
    expect(sample(first, 'jobs_queued', { lane: 'deliveries' })).toBe(0);
    expect(sample(first, 'jobs_oldest_due_age_seconds', { lane: 'deliveries' })).toBe(0);

    // A delivery job nobody runs yet (no delivery behind it: a later drain finds nothing to send).
    await ctx.app.jobs.enqueue('webhooks.deliver', { deliveryId: '00000000-0000-4000-8000-000000000001' }, { key: 'k' });
    await ctx.app.jobs.enqueue(
      'webhooks.deliver',
      { deliveryId: '00000000-0000-4000-8000-000000000002' },
      { key: 'k', runAt: new Date(ctx.clock.now().getTime() + 3600_000) },
    );
    ctx.clock.advance(90_000);
    const later90 = await scrape(ctx);
    expect(sample(later90, 'jobs_queued', { lane: 'deliveries' })).toBe(2);
    expect(sample(later90, 'jobs_oldest_due_age_seconds', { lane: 'deliveries' })).toBe(90);
    await ctx.app.jobs.drain();
    ctx.clock.advance(3600_000);
    await ctx.app.jobs.drain();
    const drained = await scrape(ctx);
    expect(sample(drained, 'jobs_queued', { lane: 'deliveries' })).toBe(0);
    expect(sample(drained, 'jobs_oldest_due_age_seconds', { lane: 'deliveries' })).toBe(0);
  });

  it('counts failed job claims by lane, every lane present from the start', async () => {
    const lanes = ['identity', 'deliveries', 'housekeeping'];
    const failures = (text: string) => lanes.map((lane) => sample(text, 'jobs_claim_failures_total', { lane }));
    expect(failures(await scrape(ctx))).toEqual([0, 0, 0]);
    // A jobs table that cannot be found fails every lane's claim, as a database that went away does.
    await ctx.app.db.execute(sql`alter table jobs rename to jobs_away`);
    try {
      await expect(ctx.app.jobs.drain()).rejects.toThrow();
      await vi.waitFor(async () => expect(failures(await scrape(ctx))).toEqual([1, 1, 1]), { timeout: 5_000, interval: 20 });
    } finally {
      await ctx.app.db.execute(sql`alter table jobs_away rename to jobs`);
    }
    await ctx.app.jobs.drain();
    expect(failures(await scrape(ctx))).toEqual([1, 1, 1]);
  });

  it('reports paused webhook receivers from the table', async () => {
    const now = ctx.clock.now();
    await ctx.app.db.execute(
      sql`insert into job_key_pauses (key, failures, paused_until, updated_at)
          values ('webhook-endpoint:paused-for-test', 3, ${new Date(now.getTime() + 60_000).toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
    );
    expect(sample(await scrape(ctx), 'webhook_endpoints_paused')).toBe(1);
    ctx.clock.advance(61_000);
    expect(sample(await scrape(ctx), 'webhook_endpoints_paused')).toBe(0);
  });

  it('times requests by route pattern, never the raw URL, and leaves the scrape itself out', async () => {
    const id = '6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f';
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/verifications/${id}?reference=secret-query-value`,
      headers: { authorization: `Bearer ${idv.backend}` },
    });
    expect(res.statusCode).toBe(404);
    await ctx.app.inject({ method: 'GET', url: '/no/such/path-abc' });
    await ctx.app.inject({ method: 'PROPFIND', url: '/health' });
    await scrape(ctx);
    const text = await scrape(ctx);
    const labels = { http_request_method: 'GET', http_route: '/v1/verifications/:id', http_response_status_code: '404' };
    expect(sample(text, 'http_server_request_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'http_server_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    expect(
      sample(text, 'http_server_request_duration_seconds_count', {
        http_request_method: 'GET',
        http_route: '',
        http_response_status_code: '404',
      }),
    ).toBe(1);
    expect(samples(text).some((s) => s.labels.http_request_method === '_OTHER')).toBe(true);
    expect(samples(text).some((s) => s.labels.http_route === '/metrics')).toBe(false);
    for (const leak of [id, 'secret-query-value', '/no/such', 'PROPFIND', TOKEN]) expect(text).not.toContain(leak);
  });

  it('counts webhook attempts by outcome: delivered, failed (retried), gave_up (no attempt follows)', async () => {
    const before = await scrape(ctx);
    const count = (text: string, outcome: string) => sample(text, 'webhook_deliveries_total', { outcome });
    const profileId = await newProfile(ctx);
    await register(ctx, profileId, receiver.url('/metrics-retried'));
    receiver.plan(500);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const afterFailure = await scrape(ctx);
    expect(count(afterFailure, 'failed')).toBe(count(before, 'failed')! + 1);
    expect(count(afterFailure, 'delivered')).toBe(count(before, 'delivered'));
    await later(ctx, 1200);
    const afterRetry = await scrape(ctx);
    expect(count(afterRetry, 'delivered')).toBe(count(before, 'delivered')! + 1);

    const gone = await newProfile(ctx);
    await register(ctx, gone, receiver.url('/metrics-gone'));
    receiver.plan(410);
    await publish(ctx, gone);
    await ctx.app.jobs.drain();
    const afterGone = await scrape(ctx);
    expect(count(afterGone, 'gave_up')).toBe(count(before, 'gave_up')! + 1);
    expect(sample(afterGone, 'webhook_delivery_duration_seconds_count')).toBe(
      sample(before, 'webhook_delivery_duration_seconds_count')! + 3,
    );
    expect(afterGone).not.toContain(profileId);
    expect(afterGone).not.toContain(receiver.url(''));
  });

  it('counts identity decisions by status and reason, with the pipeline duration', async () => {
    const approved = await captureAll(ctx, idv.backend);
    expect((await settle(ctx, idv.backend, approved.id)).status).toBe('approved');
    const declined = await captureAll(ctx, idv.backend, { mrz: passportMrz({ breakCheckDigit: true }) });
    expect((await settle(ctx, idv.backend, declined.id)).status).toBe('declined');
    const text = await scrape(ctx);
    expect(sample(text, 'identity_decisions_total', { status: 'approved', reason: 'none' })).toBe(1);
    expect(sample(text, 'identity_decisions_total', { status: 'declined', reason: 'mrz_check_digits_invalid' })).toBe(1);
    expect(sample(text, 'identity_pipeline_duration_seconds_count')).toBe(2);
    for (const leak of [approved.id, approved.token, idv.backend, idv.profileId]) expect(text).not.toContain(leak);
  });

  it('counts pipeline faults as manual_review decisions with reason pipeline_error', async () => {
    const v = await api(ctx).createVerification(idv.backend);
    await ctx.admin('POST', `/identity/verifications/${v.id}/fail-next-run`);
    const before = sample(await scrape(ctx), 'identity_decisions_total', { status: 'manual_review', reason: 'pipeline_error' }) ?? 0;
    // Carried through capture with its own token, so the injected fault meets this run.
    const a = api(ctx);
    expect(
      (await a.upload('document', v.handoff_token, [file(png(640, 480, { seed: 77 })), { name: 'mrz', value: passportMrz() }])).statusCode,
    ).toBe(201);
    const challenge = (await a.challenge(v.handoff_token)).json();
    for (const { step } of challenge.steps) {
      const res = await a.upload('selfie', v.handoff_token, [
        { name: 'step', value: String(step) },
        file(png(640, 480, { seed: 900 + step })),
      ]);
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await settle(ctx, idv.backend, v.id)).status).toBe('manual_review');
    expect(sample(await scrape(ctx), 'identity_decisions_total', { status: 'manual_review', reason: 'pipeline_error' })).toBe(before + 1);
  });

  it('counts sealed governance records by disposition and the size of their batches', async () => {
    const allowed = await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), gov.key);
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    const text = await scrape(ctx);
    const disposition = allowed.body.disposition as string;
    expect(sample(text, 'governance_records_sealed_total', { disposition })).toBe(1);
    expect(sample(text, 'governance_seal_batch_size_count')).toBe(1);
    expect(sample(text, 'governance_seal_batch_size_sum')).toBe(1);
    expect(text).not.toContain(gov.profileId);
  });

  it("reports the process's defaults and, on PostgreSQL, the pools' connections", async () => {
    const text = await scrape(ctx);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'database_up')).toBe(1);
    if (usingPostgres()) {
      expect(sample(text, 'db_client_connection_count', { pool: 'main', state: 'idle' })).toBeGreaterThan(0);
      expect(sample(text, 'db_client_connection_count', { pool: 'main', state: 'used' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'db_client_connection_pending_requests', { pool: 'bookkeeping' })).toBe(0);
    } else {
      // PGlite is one in-process connection: no pool to report.
      expect(samples(text).filter((s) => s.name === 'db_client_connection_count')).toEqual([]);
    }
  });
});

describe.runIf(process.env.REDIS_URL)('metrics with Redis', () => {
  const { ctx } = useTestApp({ env: { METRICS_TOKEN: TOKEN, REDIS_URL: process.env.REDIS_URL! } });

  it('report Redis as up once its connection is ready', async () => {
    for (let i = 0; i < 50 && ctx.app.redis?.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sample(await scrape(ctx), 'redis_up')).toBe(1);
  });
});
