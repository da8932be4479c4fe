import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';

const CLI = fileURLToPath(new URL('../../bin/verify-record.js', import.meta.url));

function verifyOffline(file: string, publicKey: string): Promise<number> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, file, '--public-key', publicKey], (err) => resolve(err ? Number((err as { code?: number }).code) : 0));
  });
}

/**
 * Every entry the published statement answers YES, demonstrated end to end through the
 * endpoint it names. The list of demonstrations must cover exactly the YES answers.
 */
describe('every YES of the proof-boundary statement is demonstrated', () => {
  const { ctx, tenant } = useTestApp({}, { tenant: governedTenant });
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'claims-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  const decide = async (o: Record<string, unknown> = {}) =>
    (await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, o), tenant.key)).body;
  const gate = async (n: number, o: Record<string, unknown>) => (await decide(o)).gates[n - 1];

  const demonstrations: Record<string, () => Promise<void>> = {
    governance_disposition_produced: async () => {
      const deny = await decide({ consequence_tier: 'EMERGENCY' });
      expect(['ALLOW', 'DENY', 'ESCALATE']).toContain(deny.disposition);
      expect((await call(ctx, 'POST', '/v1/governance/admit', { record: deny }, tenant.key)).body.error.code).toBe('NOT_ALLOWED');
      expect((await call(ctx, 'POST', '/v1/governance/admit', { record: await decide() }, tenant.key)).status).toBe(200);
    },
    disposition_not_altered: async () => {
      const record = await decide();
      const { public_key } = (await call(ctx, 'GET', '/v1/proof/boundaries')).body;
      writeFileSync(join(dir, 'ok.json'), JSON.stringify(record));
      writeFileSync(join(dir, 'altered.json'), JSON.stringify({ ...record, disposition: 'ESCALATE' }));
      expect(await verifyOffline(join(dir, 'ok.json'), public_key)).toBe(0);
      expect(await verifyOffline(join(dir, 'altered.json'), public_key)).toBe(1);
    },
    authority_continuity_evaluated: async () => {
      expect(await gate(3, {})).toMatchObject({ name: 'authority_continuity', passed: true });
      expect(await gate(3, { authority_status: 'EXPIRED' })).toMatchObject({ passed: false });
    },
    mandate_scope_evaluated: async () => {
      expect(await gate(2, { action: 'hr.fire' })).toMatchObject({ name: 'mandate_scope', passed: false });
    },
    consequence_tier_evaluated: async () => {
      expect((await decide({ consequence_tier: 'HIGH', human_present: true })).disposition).toBe('ESCALATE');
      expect(await gate(4, { consequence_tier: 'CRITICAL' })).toMatchObject({ name: 'consequence_tier', passed: false });
    },
    behavioral_continuity_evaluated: async () => {
      expect(await gate(1, { behavior: { fingerprint: 'fp-1', drift: 0.9 } })).toMatchObject({
        name: 'behavioral_continuity',
        passed: false,
      });
    },
    same_condition_replay: async () => {
      const record = await decide({ consequence_tier: 'HIGH', human_present: true });
      const replay = (await call(ctx, 'POST', '/v1/governance/replay', { record }, tenant.key)).body;
      expect(replay).toMatchObject({ signature_valid: true, replayed_disposition: 'ESCALATE', match: true });
    },
    changed_condition_replay: async () => {
      const a = (await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'A' }, tenant.key)).body;
      const b = (await call(ctx, 'POST', '/v1/proof/scenario/run', { condition: 'B' }, tenant.key)).body;
      expect(a.disposition).not.toBe(b.disposition);
    },
    offline_verification: async () => {
      const record = await decide();
      const { keys } = (await call(ctx, 'GET', '/v1/crypto/keys')).body;
      writeFileSync(join(dir, 'offline.json'), JSON.stringify(record));
      expect(await verifyOffline(join(dir, 'offline.json'), keys[0].public_key)).toBe(0);
    },
    cryptographic_tamper_evidence: async () => {
      const record = await decide();
      for (const field of Object.keys(record).filter((k) => k !== 'signature')) {
        const tampered = {
          ...record,
          [field]: field === 'seq' ? record.seq + 1 : field === 'inputs' || field === 'gates' ? [] : `${record[field]}!`,
        };
        expect((await call(ctx, 'POST', '/v1/crypto/verify', { record: tampered })).body.valid, field).toBe(false);
      }
    },
    bypass_attempt_rejection: async () => {
      for (const [kind, code] of [
        ['replayed_receipt', 'RECEIPT_REPLAYED'],
        ['modified_payload', 'SIGNATURE_INVALID'],
        ['expired_signature', 'RECEIPT_EXPIRED'],
        ['timestamp_manipulation', 'TIMESTAMP_OUT_OF_WINDOW'],
      ]) {
        expect((await call(ctx, 'POST', '/v1/challenge/bypass', { kind }, tenant.key)).body).toMatchObject({ kind, rejected: true, code });
      }
    },
    autonomous_agent_deny: async () => {
      for (const tier of ['CRITICAL', 'EMERGENCY'])
        expect((await decide({ consequence_tier: tier, human_present: false })).disposition).toBe('DENY');
    },
  };

  it('covers exactly the entries answered YES', async () => {
    const { what_proves } = (await call(ctx, 'GET', '/v1/proof/boundaries')).body as { what_proves: Record<string, { answer: string }> };
    const yes = Object.entries(what_proves)
      .filter(([, e]) => e.answer === 'YES')
      .map(([k]) => k);
    expect(yes.sort()).toEqual(Object.keys(demonstrations).sort());
  });

  for (const [claim, demonstrate] of Object.entries(demonstrations)) {
    it(claim, demonstrate);
  }
});
