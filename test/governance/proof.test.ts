import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';
import { BOTH_SCOPES, call, goodDecision, governedTenant } from '../helpers/governance.js';

/** The capability table of governance-evidence-service.md, copied verbatim: key | answer. */
const SEED_TABLE = `
| governance_disposition_produced | YES |
| disposition_not_altered | YES |
| authority_continuity_evaluated | YES |
| mandate_scope_evaluated | YES |
| consequence_tier_evaluated | YES |
| behavioral_continuity_evaluated | YES |
| same_condition_replay | YES |
| changed_condition_replay | YES |
| offline_verification | YES |
| cryptographic_tamper_evidence | YES |
| bypass_attempt_rejection | YES |
| autonomous_agent_deny | YES |
| external_independent_validation | YES — PARTIAL |
| sink_acceptance_proof | PARTIAL |
| consequence_boundary_coverage | NO — by design |
| predicate_truth | NO |
| replace_iam | NO |
| replace_siem | NO |
| replace_edr | NO |
| govern_entire_operating_system | NO |
| legal_admissibility | NOT CLAIMED |
| regulatory_certification | NOT CLAIMED |`;

const seedEntries = SEED_TABLE.trim()
  .split('\n')
  .map(
    (line) =>
      line
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean) as [string, string],
  );

describe('proving: replay, scenario, verify, keys, the proof-boundary statement', () => {
  const { ctx, tenant } = useTestApp({}, { tenant: governedTenant });

  const decide = async (overrides: Record<string, unknown> = {}) =>
    (await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, overrides), tenant.key)).body;
  const replay = (record: unknown) => call(ctx, 'POST', '/v1/governance/replay', { record }, tenant.key);
  const verify = (record: unknown) => call(ctx, 'POST', '/v1/crypto/verify', { record });

  describe('POST /v1/governance/replay', () => {
    it('replays every disposition from the sealed inputs, with the same gates, many times', async () => {
      const records = [
        await decide(),
        await decide({ consequence_tier: 'HIGH', human_present: true }),
        await decide({ consequence_tier: 'EMERGENCY' }),
        await decide({ action: 'hr.fire' }),
      ];
      for (const record of records) {
        for (let i = 0; i < 5; i++) {
          const res = await replay(record);
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({
            signature_valid: true,
            original_disposition: record.disposition,
            replayed_disposition: record.disposition,
            match: true,
          });
          expect(res.body.gates).toEqual(record.gates);
        }
      }
    });

    it('reports a changed input: signature invalid, and the ruling the changed inputs would get', async () => {
      const record = await decide();
      const res = await replay({ ...record, inputs: { ...record.inputs, authority_status: 'EXPIRED' } });
      expect(res.body).toMatchObject({ signature_valid: false, original_disposition: 'ALLOW', replayed_disposition: 'DENY', match: false });
      const broken = await replay({ ...record, inputs: null });
      expect(broken.body).toMatchObject({ signature_valid: false, replayed_disposition: 'DENY', match: false });
    });
  });

  describe('POST /v1/proof/scenario/run', () => {
    it('rules A → ALLOW and B (authority_status EXPIRED) → DENY, with sealed, verifiable records', async () => {
      const a = await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'A' }, tenant.key);
      const b = await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'B' }, tenant.key);
      expect(a).toMatchObject({
        status: 201,
        body: {
          condition: 'A',
          disposition: 'ALLOW',
          changed_condition: null,
          record: { disposition: 'ALLOW', agent_id: 'proof-scenario-agent' },
        },
      });
      expect(b).toMatchObject({
        status: 201,
        body: { condition: 'B', disposition: 'DENY', changed_condition: { field: 'authority_status', from: 'VALID', to: 'EXPIRED' } },
      });
      const { condition: _c, changed_condition: _cc, record: sealed, ...topLevel } = b.body;
      expect(topLevel).toEqual(sealed);
      const { authority_status: _a, timestamp: _t1, delegation: _d1, ...restA } = a.body.record.inputs;
      const { authority_status: _b, timestamp: _t2, delegation: _d2, ...restB } = b.body.record.inputs;
      expect(restA).toEqual(restB);
      expect(b.body.record.inputs.authority_status).toBe('EXPIRED');
      expect(b.body.record.seq).toBe(a.body.record.seq + 1);
      expect((await verify(b.body.record)).body.valid).toBe(true);
      expect((await replay(b.body.record)).body).toMatchObject({ replayed_disposition: 'DENY', match: true });
    });

    it('creates the reserved scenario agent on demand in each profile, and refuses other conditions', async () => {
      const fresh = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
      const a = await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'A' }, fresh.key);
      expect(a.body.record).toMatchObject({ seq: 1, disposition: 'ALLOW' });
      ctx.clock.advance(400 * 24 * 3600_000);
      expect((await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'A' }, fresh.key)).body.disposition).toBe('ALLOW');
      ctx.clock.advance(-400 * 24 * 3600_000);
      expect((await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'C' }, fresh.key)).status).toBe(400);
      expect((await call(ctx, 'POST', '/v1/proof/scenario/run', {}, fresh.key)).status).toBe(400);
    });
  });

  describe('POST /v1/crypto/verify and GET /v1/crypto/keys (public)', () => {
    it('verifies a record without a key, reporting freshness and chain position separately', async () => {
      const first = await decide();
      const second = await decide();
      const res = await verify(second);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: true,
        key_id: second.key_id,
        freshness: { fresh: true, expires_at: second.expires_at, checked_at: ctx.clock.now().toISOString() },
        chain: { seq: second.seq, recorded: true, prev_hash_matches: true },
      });
      expect(first.seq).toBe(second.seq - 1);
      ctx.clock.advance(300_000);
      const later = await verify(second);
      expect(later.body).toMatchObject({ valid: true, freshness: { fresh: false } });
      ctx.clock.advance(-300_000);
    });

    it('answers valid=false with a reason for any changed top-level field', async () => {
      const record = await decide();
      const changes: Record<string, unknown> = {
        record_id: '00000000-0000-4000-8000-000000000000',
        execution_id: '00000000-0000-4000-8000-000000000001',
        agent_id: 'agent-8',
        action: 'payments.payout',
        inputs: { ...record.inputs, human_present: true },
        gates: record.gates.slice(0, 3),
        disposition: 'DENY',
        policy_version: 'governance-gates/0.9',
        issued_at: '2026-11-22T12:00:00.001Z',
        expires_at: '2026-11-22T13:00:00.000Z',
        nonce: 'f'.repeat(32),
        seq: record.seq + 1,
        prev_hash: 'f'.repeat(64),
        key_id: '0123456789abcdef',
        signature: record.signature.replace(/^.{4}/, 'AAAA'),
      };
      expect(Object.keys(changes).sort()).toEqual(Object.keys(record).sort());
      for (const [field, value] of Object.entries(changes)) {
        const res = await verify({ ...record, [field]: value });
        expect(res.body.valid, field).toBe(false);
        expect(res.body.reason, field).toEqual(expect.any(String));
        expect(res.body.chain, field).toBeNull();
      }
    });

    it('publishes the live key: base64 of 32 raw bytes, kid = first 16 hex of its SHA-256', async () => {
      const res = await call(ctx, 'GET', '/v1/crypto/keys');
      expect(res.status).toBe(200);
      const [key] = res.body.keys;
      const raw = Buffer.from(key.public_key, 'base64');
      expect(raw).toHaveLength(32);
      expect(key.key_id).toBe(key.kid);
      expect(key).toMatchObject({
        kid: createHash('sha256').update(raw).digest('hex').slice(0, 16),
        algorithm: 'Ed25519',
        status: 'current',
        retired_at: null,
      });
      expect(key.kid).toBe((await decide()).key_id);
    });
  });

  describe('GET /v1/proof/boundaries (public)', () => {
    it('carries every top-level field the seed lists', async () => {
      const res = await call(ctx, 'GET', '/v1/proof/boundaries');
      expect(res.status).toBe(200);
      const s = res.body;
      expect(Object.keys(s).sort()).toEqual(
        [
          'schema',
          'version',
          'published',
          'description',
          'what_proves',
          'canonical_claim',
          'public_key',
          'verify_endpoint',
          'bypass_challenge',
          'carrier_endpoint',
          'timestamp',
        ].sort(),
      );
      expect(s.schema).toMatch(/v1$/);
      expect(s.version).toBe('1.0');
      expect(s.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(s.description.length).toBeGreaterThan(20);
      expect(s.verify_endpoint).toContain('POST /v1/crypto/verify');
      expect(s.bypass_challenge).toContain('POST /v1/challenge/bypass');
      expect(s.carrier_endpoint).toContain('GET /v1/carrier/{execution_id}');
      expect(s.timestamp).toBe('2026-11-22T12:00:00.000+00:00');
      expect(Date.parse(s.timestamp)).toBe(ctx.clock.now().getTime());
      expect(s.canonical_claim).toMatch(/decision-to-consequence evidence/);
      expect(s.canonical_claim).toMatch(/specifically protected execution route/);
      expect(s.canonical_claim).toMatch(/complete coverage of the consequence boundary remains unproven/);
      const keys = (await call(ctx, 'GET', '/v1/crypto/keys')).body.keys;
      expect(s.public_key).toBe(keys.find((k: { status: string }) => k.status === 'current').public_key);
    });

    it('answers all 22 entries of the seed exactly, each with a detail', async () => {
      const { what_proves } = (await call(ctx, 'GET', '/v1/proof/boundaries')).body;
      expect(seedEntries).toHaveLength(22);
      expect(Object.keys(what_proves).sort()).toEqual(seedEntries.map(([k]) => k).sort());
      for (const [key, answer] of seedEntries) {
        expect(what_proves[key], key).toEqual({ answer, detail: expect.any(String) });
        expect(what_proves[key].detail.length, key).toBeGreaterThan(10);
      }
      expect(what_proves.same_condition_replay.detail).toContain('POST /v1/governance/replay');
      expect(what_proves.changed_condition_replay.detail).toContain('POST /v1/proof/scenario/run');
      expect(what_proves.bypass_attempt_rejection.detail).toContain('POST /v1/challenge/bypass');
      expect(what_proves.external_independent_validation.detail).toContain('ML-DSA-65');
    });
  });

  it('documents every governance operation in the OpenAPI document, with an operationId', async () => {
    const doc = (await call(ctx, 'GET', '/openapi.json')).body;
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .filter(([path]) => /^\/v1\/(governance|proof|crypto|challenge|carrier)\//.test(path))
      .flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`));
    expect(ops.sort()).toEqual([
      'GET /v1/carrier/{execution_id} getCarrier',
      'GET /v1/crypto/keys listGovernanceKeys',
      'GET /v1/governance/log getGovernanceLog',
      'GET /v1/governance/log/keys listGovernanceLogKeys',
      'GET /v1/governance/proofs/consistency getGovernanceConsistencyProof',
      'GET /v1/governance/proofs/inclusion getGovernanceInclusionProof',
      'GET /v1/governance/records listGovernanceRecords',
      'GET /v1/proof/boundaries getProofBoundaries',
      'POST /v1/challenge/bypass challengeBypass',
      'POST /v1/crypto/verify verifyGovernanceRecord',
      'POST /v1/governance/admit admitGovernanceRecord',
      'POST /v1/governance/decisions createGovernanceDecision',
      'POST /v1/governance/replay replayGovernanceDecision',
      'POST /v1/proof/scenario/run runProofScenario',
    ]);
  });

  describe('rate limit', () => {
    it('limits each key per minute in the governance error format, without touching other keys', async () => {
      const noisy = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
      const quiet = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
      const url = '/v1/carrier/00000000-0000-4000-8000-000000000000';
      let limited: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 601 && !limited; i++) {
        const res = await call(ctx, 'GET', url, undefined, noisy.key);
        if (res.status === 429) limited = res;
        else expect(res.status).toBe(404);
      }
      expect(limited?.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
      expect(limited?.raw.headers['retry-after']).toBeDefined();
      expect((await call(ctx, 'GET', url, undefined, quiet.key)).status).toBe(404);
    });
  });
});
