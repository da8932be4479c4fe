import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { canonicalJson, GENESIS_HASH } from '../../src/lib/canonical-json.js';
import { useTestApp } from '../helpers/suite.js';
import { addKey, createTenant } from '../helpers/tenants.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import type { TestContext } from '../helpers/app.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('governance decisions: operator rows, auth, validation, sealing, chain, tenants', () => {
  const { ctx, tenant } = useTestApp({}, { tenant: governedTenant });

  const decide = (body: unknown, key = tenant.key) => call(ctx, 'POST', '/v1/governance/decisions', body, key);

  it('manages agents and delegations through the operator API', async () => {
    const dup = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/governance/agents',
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      payload: { profileId: tenant.profileId, agentId: 'agent-7', mandate: ['x.*'], baseline: { fingerprint: 'f', maxDrift: 0 } },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ success: false, error: { code: 'CONFLICT' } });
    await ctx.admin(
      'POST',
      '/governance/agents',
      { profileId: tenant.profileId, agentId: 'proof-scenario-agent', mandate: ['*'], baseline: { fingerprint: 'f', maxDrift: 1 } },
      400,
    );
    await ctx.admin(
      'POST',
      '/governance/agents',
      { profileId: '00000000-0000-4000-8000-000000000000', agentId: 'a', mandate: [], baseline: { fingerprint: 'f', maxDrift: 1 } },
      404,
    );
    await ctx.admin(
      'POST',
      '/governance/agents',
      { profileId: tenant.profileId, agentId: 'a', mandate: 'payments.*', baseline: { fingerprint: 'f', maxDrift: 1 } },
      400,
    );
    await ctx.admin(
      'POST',
      '/governance/delegations',
      { profileId: tenant.profileId, agentId: 'ghost', grantedBy: 'x', expiresAt: '2027-01-01T00:00:00Z' },
      404,
    );
    await ctx.admin('POST', '/governance/delegations/not-a-uuid/revoke', undefined, 404);
    await ctx.admin('POST', '/governance/delegations/00000000-0000-4000-8000-000000000000/revoke', undefined, 404);
    const other = await createTenant(ctx, { service: 'governance', scopes: ['governance:decide'] });
    const agent = await ctx.admin('POST', '/governance/agents', {
      profileId: other.profileId,
      agentId: 'agent-7',
      mandate: ['hr.*'],
      baseline: { fingerprint: 'f', maxDrift: 0.5 },
    });
    expect(agent.data).toEqual({
      id: expect.any(String),
      profileId: other.profileId,
      agentId: 'agent-7',
      mandate: ['hr.*'],
      baseline: { fingerprint: 'f', maxDrift: 0.5 },
      createdAt: ctx.clock.now().toISOString(),
    });
  });

  it('requires a governance key with the right scope, in its own error format', async () => {
    const none = await decide(goodDecision(ctx), '');
    expect(none).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED', message: expect.any(String) } } });
    expect(Object.keys(none.body)).toEqual(['error']);
    expect((await decide(goodDecision(ctx), 'gov_live_wrong')).status).toBe(401);
    const ticketing = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] });
    expect((await decide(goodDecision(ctx), ticketing.key)).status).toBe(401);
    const readOnly = await addKey(ctx, tenant.profileId, { service: 'governance', scopes: ['governance:read'] });
    expect(await decide(goodDecision(ctx), readOnly.key)).toMatchObject({ status: 403, body: { error: { code: 'INSUFFICIENT_SCOPE' } } });
    const decideOnly = await addKey(ctx, tenant.profileId, { service: 'governance', scopes: ['governance:decide'] });
    expect((await call(ctx, 'GET', `/v1/carrier/00000000-0000-4000-8000-000000000000`, undefined, decideOnly.key)).status).toBe(403);
    expect((await call(ctx, 'POST', '/v1/governance/replay', { record: {} }, decideOnly.key)).status).toBe(403);
    expect((await call(ctx, 'POST', '/v1/governance/admit', { record: {} }, readOnly.key)).status).toBe(403);
    expect((await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'A' }, readOnly.key)).status).toBe(403);
    expect((await call(ctx, 'POST', '/v1/challenge/bypass', { kind: 'modified_payload' }, readOnly.key)).status).toBe(403);
    const revoked = await addKey(ctx, tenant.profileId, { service: 'governance', scopes: ['governance:decide'] });
    await ctx.admin('DELETE', `/api-keys/${revoked.keyId}`);
    expect((await decide(goodDecision(ctx), revoked.key)).status).toBe(401);
  });

  it('answers unknown governance routes with its own 404 format', async () => {
    for (const url of ['/v1/governance/nope', '/v1/proof/nope', '/v1/crypto/nope', '/v1/challenge/nope', '/v1/carrier/a/b']) {
      expect(await call(ctx, 'GET', url)).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    }
  });

  it('refuses invalid decisions with 400 VALIDATION_ERROR', async () => {
    const bad = [
      goodDecision(ctx, { consequence_tier: 'SEVERE' }),
      goodDecision(ctx, { authority_status: 'MAYBE' }),
      goodDecision(ctx, { human_present: 'yes' }),
      goodDecision(ctx, { timestamp: '2026-11-22 12:00' }),
      goodDecision(ctx, { timestamp: '2026-11-22T12:00:00' }),
      goodDecision(ctx, { behavior: { fingerprint: 'fp-1', drift: -0.1 } }),
      goodDecision(ctx, { extra: true }),
      { ...goodDecision(ctx), agent_id: undefined },
      { ...goodDecision(ctx), action: '' },
    ];
    for (const body of bad) {
      const res = await decide(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses JSON that cannot be canonicalized safely, on the raw text', async () => {
    const raw = (text: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/governance/decisions',
        headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
        payload: text,
      });
    const good = JSON.stringify(goodDecision(ctx));
    const cases = [
      good.replace('{', '{"action":"hr.fire",'),
      good.replace('"fp-1"', '"fp-1\\ud800"'),
      good.replace('0.05', '9007199254740993'),
      good.replace('0.05', '1e999'),
      '{"agent_id":',
    ];
    for (const text of cases) {
      const res = await raw(text);
      expect(res.statusCode, text).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await raw(good)).statusCode).toBe(201);
  });

  it("answers an unknown agent, or another profile's agent, with 404", async () => {
    expect(await decide(goodDecision(ctx, { agent_id: 'ghost' }))).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    const other = await createTenant(ctx, { service: 'governance', scopes: ['governance:decide'] });
    expect((await decide(goodDecision(ctx), other.key)).status).toBe(404);
  });

  it('seals a record with every field of CONTRACT §4, snapshotting what the gates read', async () => {
    const res = await decide(goodDecision(ctx, { timestamp: '2026-11-22T13:00:00+01:00' }));
    expect(res.status).toBe(201);
    const r = res.body;
    expect(Object.keys(r).sort()).toEqual(
      [
        'record_id',
        'execution_id',
        'agent_id',
        'action',
        'inputs',
        'gates',
        'disposition',
        'policy_version',
        'issued_at',
        'expires_at',
        'nonce',
        'seq',
        'prev_hash',
        'key_id',
        'signature',
      ].sort(),
    );
    expect(r).toMatchObject({
      agent_id: 'agent-7',
      action: 'payments.refund',
      disposition: 'ALLOW',
      issued_at: '2026-11-22T12:00:00.000Z',
      expires_at: '2026-11-22T12:05:00.000Z',
      key_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      signature: expect.stringMatching(/^[A-Za-z0-9_-]{86}$/),
    });
    expect(r.inputs).toEqual({
      agent_id: 'agent-7',
      action: 'payments.refund',
      authority_status: 'VALID',
      human_present: false,
      consequence_tier: 'LOW',
      timestamp: '2026-11-22T12:00:00.000Z',
      behavior: { fingerprint: 'fp-1', drift: 0.05 },
      mandate: ['payments.*', 'reports.read'],
      baseline: { fingerprint: 'fp-1', max_drift: 0.2 },
      delegation: {
        delegation_id: tenant.delegationId,
        granted_by: 'cfo@example.com',
        expires_at: '2026-11-23T12:00:00.000Z',
        revoked_at: null,
      },
    });
    expect(r.gates.map((g: { gate: number; name: string; passed: boolean }) => [g.gate, g.name, g.passed])).toEqual([
      [1, 'behavioral_continuity', true],
      [2, 'mandate_scope', true],
      [3, 'authority_continuity', true],
      [4, 'consequence_tier', true],
    ]);
  });

  it('rules per the disposition order through the API', async () => {
    const d = async (o: Record<string, unknown>) => (await decide(goodDecision(ctx, o))).body.disposition;
    expect(await d({ consequence_tier: 'CRITICAL', human_present: false })).toBe('DENY');
    expect(await d({ consequence_tier: 'EMERGENCY', human_present: false })).toBe('DENY');
    expect(await d({ consequence_tier: 'HIGH', human_present: true })).toBe('ESCALATE');
    expect(await d({ consequence_tier: 'CRITICAL', human_present: true })).toBe('ESCALATE');
    expect(await d({ consequence_tier: 'HIGH', human_present: false })).toBe('ALLOW');
    expect(await d({ action: 'hr.fire' })).toBe('DENY');
    expect(await d({ behavior: { fingerprint: 'fp-1', drift: 0.2 } })).toBe('ALLOW');
    expect(await d({ behavior: { fingerprint: 'fp-1', drift: 0.21 } })).toBe('DENY');
    expect(await d({ behavior: undefined })).toBe('ALLOW');
    expect(await d({ authority_status: 'EXPIRED' })).toBe('DENY');
    expect(await d({ timestamp: '2026-11-23T12:00:00.000Z' })).toBe('DENY');
  });

  it('reads the delegation as of the decision: revocation and expiry deny', async () => {
    const t = await governedTenant(ctx, 'agent-r');
    const ok = await decide(goodDecision(ctx, { agent_id: 'agent-r' }), t.key);
    expect(ok.body.disposition).toBe('ALLOW');
    const revoked = await ctx.admin('POST', `/governance/delegations/${t.delegationId}/revoke`);
    expect(revoked.data.revokedAt).toBe(ctx.clock.now().toISOString());
    expect((await ctx.admin('POST', `/governance/delegations/${t.delegationId}/revoke`)).data.revokedAt).toBe(revoked.data.revokedAt);
    const after = await decide(goodDecision(ctx, { agent_id: 'agent-r' }), t.key);
    expect(after.body.disposition).toBe('DENY');
    expect(after.body.inputs.delegation.revoked_at).toBe(revoked.data.revokedAt);
    expect(after.body.gates[2].reason).toMatch(/revoked/);
    // the earlier record still replays to ALLOW from its own snapshot
    const replay = await call(ctx, 'POST', '/v1/governance/replay', { record: ok.body }, t.key);
    expect(replay.body).toMatchObject({ signature_valid: true, original_disposition: 'ALLOW', replayed_disposition: 'ALLOW', match: true });
  });

  it('snapshots the delegation in force when an agent holds several', async () => {
    const t = await governedTenant(ctx, 'agent-m');
    const later = await ctx.admin('POST', '/governance/delegations', {
      profileId: t.profileId,
      agentId: 'agent-m',
      grantedBy: 'ceo',
      expiresAt: '2026-12-31T00:00:00.000Z',
    });
    await ctx.admin('POST', `/governance/delegations/${later.data.id}/revoke`);
    const expired = await ctx.admin('POST', '/governance/delegations', {
      profileId: t.profileId,
      agentId: 'agent-m',
      grantedBy: 'cto',
      expiresAt: '2026-11-22T11:00:00.000Z',
    });
    const r = await decide(goodDecision(ctx, { agent_id: 'agent-m' }), t.key);
    expect(r.body.disposition).toBe('ALLOW');
    expect(r.body.inputs.delegation).toMatchObject({ delegation_id: t.delegationId, granted_by: 'cfo@example.com', revoked_at: null });
    expect(expired.data.id).not.toBe(t.delegationId);
    const none = await governedTenant(ctx, 'agent-n');
    await ctx.admin('POST', `/governance/delegations/${none.delegationId}/revoke`);
    const denied = await decide(goodDecision(ctx, { agent_id: 'agent-n' }), none.key);
    expect(denied.body.inputs.delegation.delegation_id).toBe(none.delegationId);
    expect(denied.body.disposition).toBe('DENY');
  });

  it("chains each profile's records: seq from 1 without gaps, prev_hash = SHA-256 of the previous JCS", async () => {
    const t = await governedTenant(ctx);
    const records = [];
    const texts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await decide(goodDecision(ctx), t.key);
      // The body is the record's canonical JSON itself: its hash is the next link's prev_hash.
      expect(res.raw.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.raw.body).toBe(canonicalJson(res.body));
      records.push(res.body);
      texts.push(res.raw.body);
    }
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(records[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < records.length; i++) expect(records[i].prev_hash).toBe(sha256(texts[i - 1]!));
    const parallel = await Promise.all(Array.from({ length: 12 }, () => decide(goodDecision(ctx), t.key)));
    const all = [...records, ...parallel.map((p) => p.body)].sort((a, b) => a.seq - b.seq);
    expect(all.map((r) => r.seq)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    for (let i = 1; i < all.length; i++) expect(all[i].prev_hash).toBe(sha256(canonicalJson(all[i - 1])));
  });

  it('answers 503 in its own format when the database is unreachable', async () => {
    // Sealing runs one statement (db.execute) after this instance's own last batch, else a transaction: both fail.
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const spies = [
      vi.spyOn(ctx.app.db, 'transaction').mockRejectedValueOnce(refused()),
      vi.spyOn(ctx.app.db, 'execute').mockRejectedValueOnce(refused()),
    ];
    const res = await decide(goodDecision(ctx));
    for (const spy of spies) spy.mockRestore();
    expect(res).toEqual({
      status: 503,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' } },
      raw: expect.anything(),
    });
    expect(res.raw.body).not.toMatch(/ECONNREFUSED|5432/);
  });

  it('answers 503 to every decision of a batch while the database takes no writes, and the chain goes on without a gap', async () => {
    // A standby being promoted takes connections before it takes writes: each write there fails
    // with 25006 (src/db/errors.ts, docs/failover.md). This once answered 500 in the failover test.
    const t = await governedTenant(ctx);
    const first = await decide(goodDecision(ctx), t.key);
    expect(first.status).toBe(201);
    const unavailable = { error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' } };
    // Twice: the first batch is written after this instance's own last one (one statement), the
    // second, its head forgotten with the failed batch, in a transaction under the chain-head lock.
    for (const path of ['one statement', 'under the lock']) {
      const refused = await whileReadOnly(ctx, () => Promise.all([1, 2, 3].map(() => decide(goodDecision(ctx), t.key))));
      expect(
        refused.map((r) => r.status),
        path,
      ).toEqual([503, 503, 503]);
      for (const r of refused) expect(r.body).toEqual(unavailable);
    }
    const next = await decide(goodDecision(ctx), t.key);
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ seq: 2, prev_hash: sha256(canonicalJson(first.body)) });
  });
});

/**
 * Runs `run` while the app's database refuses every write as a standby does
 * (`default_transaction_read_only`, SQLSTATE 25006): on PGlite for its one session; on PostgreSQL
 * for the database, its open sessions ended so that the pool's new ones start read-only.
 */
async function whileReadOnly<T>(ctx: TestContext, run: () => Promise<T>): Promise<T> {
  if (ctx.app.database.kind === 'pglite') {
    await ctx.app.db.execute(sql`set default_transaction_read_only = on`);
    try {
      return await run();
    } finally {
      await ctx.app.db.execute(sql`set default_transaction_read_only = off`);
    }
  }
  const name = new URL(ctx.env.DATABASE_URL!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const setting = async (value: 'on' | 'off') => {
    await admin.query(`alter database ${name} set default_transaction_read_only = ${value}`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  };
  try {
    await setting('on');
    try {
      return await run();
    } finally {
      await setting('off');
    }
  } finally {
    await admin.end();
  }
}
