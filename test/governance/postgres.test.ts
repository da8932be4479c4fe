import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, GENESIS_HASH } from '../../src/lib/canonical-json.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { consistency, mth } from './rfc9162.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Two instances of the server on one PostgreSQL database, as behind a load balancer. */
describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  const { ctx: one, tenant } = useTestApp({}, { tenant: governedTenant });
  const { ctx: two } = useTestApp(() => ({ shareWith: one, clock: one.clock }));

  const decideOn = (ctx: TestContext, overrides: Record<string, unknown> = {}) =>
    call(ctx, 'POST', '/v1/governance/decisions', goodDecision(one, overrides), tenant.key);

  it('share one signing key', async () => {
    const a = (await call(one, 'GET', '/v1/crypto/keys')).body.keys;
    const b = (await call(two, 'GET', '/v1/crypto/keys')).body.keys;
    expect(a).toEqual(b);
    expect(a.filter((k: { status: string }) => k.status === 'current')).toHaveLength(1);
  });

  it('admit a record presented to both instances at the same moment exactly once', async () => {
    for (let round = 0; round < 5; round++) {
      const record = (await decideOn(one)).body;
      const attempts = await Promise.all(
        Array.from({ length: 6 }, (_, i) => call(i % 2 ? two : one, 'POST', '/v1/governance/admit', { record }, tenant.key)),
      );
      expect(attempts.filter((a) => a.status === 200)).toHaveLength(1);
      expect(attempts.filter((a) => a.status === 409).every((a) => a.body.error.code === 'RECEIPT_REPLAYED')).toBe(true);
      expect(attempts.filter((a) => a.status === 409)).toHaveLength(5);
      const carrier = (await call(two, 'GET', `/v1/carrier/${record.execution_id}`, undefined, tenant.key)).body;
      expect(carrier.deliveries.map((d: { result: string }) => d.result).sort()).toEqual([
        'ADMITTED',
        ...Array(5).fill('RECEIPT_REPLAYED'),
      ]);
    }
  });

  it('keep one chain per profile under concurrent decisions on both instances: no gaps, no forks', async () => {
    const t = await governedTenant(one);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(i % 2 ? two : one, 'POST', '/v1/governance/decisions', goodDecision(one), t.key)),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const records = results.map((r) => r.body).sort((a, b) => a.seq - b.seq);
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(records[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < records.length; i++) expect(records[i].prev_hash).toBe(sha256(canonicalJson(records[i - 1])));
    const last = (await call(two, 'POST', '/v1/crypto/verify', { record: records[29] })).body;
    expect(last).toMatchObject({ valid: true, chain: { seq: 30, recorded: true, prev_hash_matches: true } });
  });

  it('keep one transparency log under concurrent decisions on both instances: one tree, the same checkpoint on each', async () => {
    const t = await governedTenant(one);
    const logs = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => call(i % 2 ? two : one, 'POST', '/v1/governance/decisions', goodDecision(one), t.key)),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      const [a, b] = await Promise.all(
        [one, two].map(async (ctx) => (await call(ctx, 'GET', '/v1/governance/log', undefined, t.key)).body),
      );
      // One key, one tree: the Ed25519 note is the same text on both instances.
      expect(a.checkpoint).toBe(b.checkpoint);
      expect(a.tree_size).toBe(20 * (round + 1));
      logs.push(a);
    }
    const exported = (await call(two, 'GET', '/v1/governance/records?limit=1000', undefined, t.key)).body.records;
    const leaves = exported.map((r: unknown) => Buffer.from(canonicalJson(r), 'utf8'));
    for (const log of logs) expect(log.checkpoint.split('\n')[2]).toBe(mth(leaves.slice(0, log.tree_size)).toString('base64'));
    const proof = (await call(one, 'GET', '/v1/governance/proofs/consistency?from=20&to=60', undefined, t.key)).body.proof;
    expect(proof).toEqual(consistency(20, leaves).map((h) => h.toString('base64')));
  });

  it('decide on a revocation made through the other instance, though this one had read the agent before', async () => {
    const t = await governedTenant(one, 'agent-x');
    const decide = () => call(one, 'POST', '/v1/governance/decisions', goodDecision(one, { agent_id: 'agent-x' }), t.key);
    expect((await decide()).body.disposition).toBe('ALLOW');
    const revoked = await two.admin('POST', `/governance/delegations/${t.delegationId}/revoke`);
    const after = (await decide()).body;
    expect(after.disposition).toBe('DENY');
    expect(after.inputs.delegation).toMatchObject({ delegation_id: t.delegationId, revoked_at: revoked.data.revokedAt });
  });

  it('run the scenario concurrently on both instances for a fresh profile', async () => {
    const t = await governedTenant(one);
    const runs = await Promise.all(
      ['A', 'B', 'A', 'B'].map((condition, i) => call(i % 2 ? two : one, 'POST', '/v1/proof/scenario/run', { condition }, t.key)),
    );
    expect(runs.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(runs.map((r) => r.body.disposition)).toEqual(['ALLOW', 'DENY', 'ALLOW', 'DENY']);
    expect(runs.map((r) => r.body.record.seq).sort()).toEqual([1, 2, 3, 4]);
  });

  it('keep verifying across a key rotation: a configured key retires the generated one, both stay published', async () => {
    const before = (await decideOn(one)).body;
    const three = await buildTestApp({
      shareWith: one,
      clock: one.clock,
      env: { GOVERNANCE_SIGNING_KEY: Buffer.alloc(32, 9).toString('base64') },
    });
    try {
      const keys = (await call(three, 'GET', '/v1/crypto/keys')).body.keys;
      expect(keys.map((k: { status: string }) => k.status).sort()).toEqual(['current', 'retired']);
      expect(keys.find((k: { status: string }) => k.status === 'retired').kid).toBe(before.key_id);
      const after = (await decideOn(three)).body;
      expect(after.key_id).not.toBe(before.key_id);
      expect(after.seq).toBe(before.seq + 1);
      for (const ctx of [one, three]) {
        for (const record of [before, after]) {
          expect((await call(ctx, 'POST', '/v1/crypto/verify', { record })).body).toMatchObject({
            valid: true,
            key_id: record.key_id,
            chain: { prev_hash_matches: true },
          });
        }
      }
      expect((await call(three, 'GET', '/v1/proof/boundaries')).body.public_key).toBe(
        keys.find((k: { status: string }) => k.status === 'current').public_key,
      );
    } finally {
      await three.close();
    }
  });
});
