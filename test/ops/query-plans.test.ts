import { sql } from 'drizzle-orm';
import pg from 'pg';
import { rowsOf } from '../../src/db/client.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, buildTestApp, type TestContext } from '../helpers/app.js';
import { api, captureIntoManualReview } from '../helpers/identity.js';
import { createFixtures, type Fixtures } from '../properties/fixtures.js';
import { operationsOf, resolver, sampleOf, type Operation } from '../properties/requests.js';
import { captureStatements, planOf, type PlannedStatement } from './query-plans-capture.js';
import { seedOtherTenants } from './query-plans-seed.js';

/*
 * PostgreSQL only: every statement the server sends while one app walks every operation of its
 * OpenAPI document (with records to act on), runs its jobs and its purges days later, is explained
 * with sequential scans off, beside four other tenants' rows. QUERY_PLANS_DUMP=<file> writes each
 * statement with its values and plan, to read a failure.
 */

/**
 * Tables whose rows grow with the business (orders, scans, deliveries, decisions, jobs …): a
 * statement that reads one of them must find its rows through an index, never by reading the
 * whole table, or it slows down for every tenant as any one of them grows.
 */
const GROWING = [
  'ticketing_events',
  'ticketing_ticket_types',
  'ticketing_orders',
  'ticketing_order_items',
  'ticketing_issued_tickets',
  'ticketing_check_ins',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
  'identity_verifications',
  'identity_handoff_tokens',
  'identity_frames',
  'identity_reviews',
  'identity_attestations',
  'identity_audit_events',
  'governance_records',
  'governance_admissions',
  'governance_deliveries',
  // One row per witness per cosigned tree size (docs/governance.md, "Witnesses").
  'governance_witness_cosignatures',
  'governance_delegations',
  'jobs',
  'idempotency_keys',
  'api_keys',
];

/** Tables left out, each with why it stays small. */
const BOUNDED: Record<string, string> = {
  profiles: 'one row per tenant; read by primary key, listed only by the operator (a page of tenants)',
  venues: "a tenant's few venues, looked up by id or by profile",
  webhook_endpoints: "a tenant's few receiving URLs",
  governance_agents: "a tenant's agents, unique by (profile, agent id)",
  governance_chain_heads: 'one row per tenant: the head of its record chain',
  ticketing_event_counts: 'at most 16 shards × 5 statuses per tenant',
  signing_keys: 'one live key per purpose, plus the retired ones',
  job_key_pauses: 'one row per webhook receiver that keeps failing',
};

/**
 * Partial indexes whose rows stay few however large their table grows: walking one whole reads
 * only live rows, so a plan may.
 */
const LIVE_ROWS_ONLY: Record<string, string> = {
  jobs_running_idx: "running jobs only: at most the lanes' concurrency over every process",
  jobs_pending_idx: 'pending jobs only: the backlog the runner drains, not the finished jobs that pile up',
};

/**
 * Statements that read a growing table whole on purpose, with why. Keyed by a piece of their text.
 */
// None today: every statement finds its rows through an index.
const MUST_SCAN: Record<string, string> = {};

const LIMITS = {
  TICKETING_RATE_LIMIT_PER_MINUTE: '1000000',
  IDENTITY_RATE_LIMIT_PER_MINUTE: '1000000',
  CAPTURE_RATE_LIMIT_PER_MINUTE: '1000000',
  GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
  ADMIN_RATE_LIMIT_PER_MINUTE: '1000000',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000',
};

const DAY = 24 * 3600_000;

describe.runIf(process.env.DATABASE_URL)('query plans: no statement of the server scans a table that grows', () => {
  let ctx: TestContext;
  let fx: Fixtures;
  const capture = captureStatements();
  const planned: PlannedStatement[] = [];
  const unplanned: string[] = [];
  const answers = new Map<string, number>();

  /** The known-good request of each operation of the served OpenAPI document, as the property test sends it first. */
  async function walkEveryOperation(): Promise<void> {
    const doc = ctx.app.swagger() as any;
    const resolve = resolver(doc);
    for (const op of operationsOf(doc)) {
      const res = await ctx.app.inject({
        method: op.method as 'GET',
        url: urlOf(op),
        headers: tokenFor(op) ? { authorization: `Bearer ${tokenFor(op)}` } : {},
        ...(op.method === 'GET' || op.method === 'DELETE'
          ? {}
          : { payload: (fx.seeds[op.operationId]?.body ?? sampleOf(op.bodySchema, resolve)) as object }),
      });
      answers.set(op.operationId, res.statusCode);
    }
  }

  /**
   * The routes whose known-good request the walk leaves refused (a paid order paid again, a
   * reviewed case claimed, another profile's verification), each once on a record that allows it.
   */
  async function walkWhatTheWalkRefused(): Promise<void> {
    const pending = await ctx.admin('POST', `/events/${fx.byParam.eventId}/orders`, fx.seeds.createOrder!.body);
    await ctx.admin('POST', `/orders/${pending.data.id}/pay`);
    const identity = api(ctx);
    const fresh = await identity.createVerification(fx.identityKey);
    await identity.call('POST', `/v1/verifications/${fresh.id}/handoff`, fx.identityKey, undefined, 201);
    const inReview = await captureIntoManualReview(ctx, fx.identityKey, 777);
    await identity.call('PUT', `/v1/review/${inReview.id}/claim`, fx.reviewerKey, undefined, 200);
    await identity.call('DELETE', `/v1/review/${inReview.id}/claim`, fx.reviewerKey, undefined, 200);
    // The verification's profile, read aside: no view of the partner API shows it.
    capture.stop();
    const owner = await ctx.app.db.execute(sql`select profile_id from identity_verifications where id = ${fresh.id}`);
    capture.start();
    const profileId = rowsOf<{ profile_id: string }>(owner)[0]!.profile_id;
    await ctx.admin('POST', `/profiles/${profileId}/verifications`, { reference: 'walk-in' });
    await ctx.admin('GET', `/profiles/${profileId}/verifications/${fresh.id}`);
    await ctx.admin('POST', `/profiles/${profileId}/verifications/${fresh.id}/capture-link`);
  }

  function tokenFor(op: Operation): string | undefined {
    if (op.path.startsWith('/admin/v1/')) return ADMIN_TOKEN;
    if (op.path.startsWith('/api/v1/')) return fx.ticketingKey;
    if (!op.path.startsWith('/v1/')) return undefined;
    if (op.tags.some((t) => t.includes('capture'))) return fx.ownHandoffToken[op.operationId] ?? fx.handoffToken;
    if (op.tags.some((t) => t.includes('review'))) return fx.reviewerKey;
    if (op.tags.some((t) => t.startsWith('governance'))) return fx.governanceKey;
    return fx.identityKey;
  }

  function urlOf(op: Operation): string {
    const seed = fx.seeds[op.operationId];
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const resource = op.path.split('/')[op.path.split('/').indexOf(`{${name}}`) - 1] ?? '';
      return encodeURIComponent(
        seed?.params?.[name] ?? fx.byParam[name] ?? fx.byResource[resource] ?? '00000000-0000-4000-8000-000000000000',
      );
    });
    const query = seed?.query ? new URLSearchParams(seed.query).toString() : '';
    return query ? `${path}?${query}` : path;
  }

  beforeAll(async () => {
    ctx = await buildTestApp({ env: LIMITS });
    await seedOtherTenants(ctx.env.DATABASE_URL!);
    capture.start();
    fx = await createFixtures(ctx);
    await walkEveryOperation();
    await walkWhatTheWalkRefused();
    // Filters of the operator's lists, which the walk sends without.
    for (const url of [
      `/webhook-deliveries?endpointId=${fx.byResource['webhook-endpoints']}&status=failed`,
      '/webhook-deliveries?status=pending',
      `/api-keys?profileId=${fx.byResource.profiles}`,
    ])
      await ctx.admin('GET', url, undefined, [200, 400]);
    // The job runner, then the periodic purges, days later.
    await ctx.app.jobs.drain();
    for (const days of [1, 2, 40]) {
      ctx.clock.advance(days * DAY);
      await ctx.app.jobs.drain();
    }
    capture.stop();
    const client = new pg.Client({ connectionString: ctx.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('analyze');
      for (const statement of capture.statements()) {
        try {
          planned.push(await planOf(client, statement));
        } catch (err) {
          unplanned.push(`${(err as Error).message}\n  ${statement.text}`);
        }
      }
    } finally {
      await client.end();
    }
    if (process.env.QUERY_PLANS_DUMP) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        process.env.QUERY_PLANS_DUMP,
        JSON.stringify(
          { answers: Object.fromEntries(answers), plans: planned.map((p) => ({ text: p.text, values: p.values, plan: p.plan })) },
          null,
          1,
        ),
      );
    }
  }, 600_000);

  afterAll(async () => {
    capture.restore();
    await ctx?.close();
  });

  it('saw the statements of all three APIs, the operator API and the job runner', () => {
    const texts = planned.map((p) => p.text).join('\n');
    for (const table of ['ticketing_check_ins', 'identity_frames', 'governance_records', 'webhook_attempts', 'jobs', 'idempotency_keys'])
      expect(texts, table).toContain(`"${table}"`);
    expect(planned.length).toBeGreaterThan(100);
  });

  it('lists every table of the schema either as growing or as bounded, with a reason', async () => {
    const client = new pg.Client({ connectionString: ctx.env.DATABASE_URL });
    await client.connect();
    const tables = (
      await client.query(`select tablename from pg_tables where schemaname = 'public' and tablename not like '\\_\\_%'`)
    ).rows.map((r) => r.tablename as string);
    await client.end();
    expect(tables.filter((t) => !GROWING.includes(t) && !(t in BOUNDED)).sort()).toEqual([]);
  });

  it('could explain every statement it saw', () => {
    expect(unplanned, unplanned.join('\n')).toEqual([]);
  });

  it('plans every statement that reads a growing table with an index', () => {
    const scans = planned
      .filter((p) => p.wholeReads.some((r) => GROWING.includes(r.table) && !(r.index && r.index in LIVE_ROWS_ONLY)))
      .filter((p) => !Object.keys(MUST_SCAN).some((piece) => p.text.includes(piece)))
      .map((p) => `${p.wholeReads.map((r) => `${r.table}: ${r.by}`).join(', ')}\n  ${p.text}\n  ${p.plan.replace(/\n/g, '\n  ')}`);
    expect(scans, scans.join('\n\n')).toEqual([]);
  });
});
