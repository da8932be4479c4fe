import { describe, expect, it } from 'vitest';
import { actionMatches, evaluateGates } from '../../src/governance/policy.js';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import type { DecisionInputs } from '../../src/governance/types.js';

const T = '2026-11-22T12:00:00.000Z';

function inputs(overrides: Partial<DecisionInputs> = {}): DecisionInputs {
  return {
    agent_id: 'agent-7',
    action: 'payments.refund',
    authority_status: 'VALID',
    human_present: false,
    consequence_tier: 'LOW',
    timestamp: T,
    behavior: { fingerprint: 'fp-1', drift: 0.05 },
    mandate: ['payments.*'],
    baseline: { fingerprint: 'fp-1', max_drift: 0.2 },
    delegation: { delegation_id: 'd-1', granted_by: 'cfo', expires_at: '2026-11-23T12:00:00.000Z', revoked_at: null },
    ...overrides,
  };
}

const gate = (i: DecisionInputs | unknown, n: number) => evaluateGates(i).gates[n - 1]!;

describe('gate 1: behavioural drift against the approved baseline', () => {
  it('passes below and exactly at maxDrift, fails just above it', () => {
    expect(gate(inputs({ behavior: { fingerprint: 'fp-1', drift: 0.19 } }), 1).passed).toBe(true);
    expect(gate(inputs({ behavior: { fingerprint: 'fp-1', drift: 0.2 } }), 1).passed).toBe(true);
    const over = evaluateGates(inputs({ behavior: { fingerprint: 'fp-1', drift: 0.2000001 } }));
    expect(over.gates[0]).toMatchObject({ gate: 1, name: 'behavioral_continuity', passed: false });
    expect(over.disposition).toBe('DENY');
  });

  it('fails a fingerprint other than the baseline, whatever the drift', () => {
    const r = evaluateGates(inputs({ behavior: { fingerprint: 'fp-2', drift: 0 } }));
    expect(r.gates[0]!.passed).toBe(false);
    expect(r.disposition).toBe('DENY');
  });

  it('passes when no behaviour was observed (nothing deviates), and says so', () => {
    const g = gate(inputs({ behavior: null }), 1);
    expect(g.passed).toBe(true);
    expect(g.reason).toMatch(/no behavioural observation/);
  });

  it('fails closed on unreadable behaviour or baseline', () => {
    for (const bad of [
      inputs({ behavior: { fingerprint: 'fp-1', drift: -1 } }),
      inputs({ behavior: { fingerprint: 'fp-1', drift: 'x' as never } }),
      inputs({ baseline: { fingerprint: 'fp-1' } as never }),
      { ...inputs(), behavior: undefined },
    ]) {
      const r = evaluateGates(bad);
      expect(r.gates[0]).toMatchObject({ passed: false, reason: expect.stringMatching(/^gate error \(fail closed\)/) });
      expect(r.disposition).toBe('DENY');
    }
  });
});

describe('gate 2: action within the declared mandate', () => {
  it.each([
    ['payments.*', 'payments.refund', true],
    ['payments.*', 'payments.refund.partial', true],
    ['payments.*', 'payments', false],
    ['payments.*', 'paymentsx.refund', false],
    ['payments.*', 'reports.payments.refund', false],
    ['payments.refund', 'payments.refund', true],
    ['payments.refund', 'payments.refunds', false],
    ['payments.*.eu', 'payments.refund.eu', true],
    ['payments.*.eu', 'payments.refund.us', false],
    ['payments.*.eu', 'payments.refund.x.eu', false],
    ['*', 'anything.at.all', true],
    ['payments.*', 'payments.', false],
  ])('%s against %s → %s', (pattern, action, expected) => {
    expect(actionMatches(pattern, action)).toBe(expected);
  });

  it('denies an action outside every pattern, and an empty mandate', () => {
    expect(evaluateGates(inputs({ action: 'hr.fire' })).gates[1]!.passed).toBe(false);
    expect(evaluateGates(inputs({ mandate: [] })).disposition).toBe('DENY');
    expect(evaluateGates(inputs({ mandate: ['hr.*', 'payments.*'] })).gates[1]!.reason).toContain('payments.*');
  });
});

describe('gate 3: delegation current, unrevoked, unexpired at the decision; authority asserted VALID', () => {
  const expiring = (at: string) => inputs({ delegation: { delegation_id: 'd', granted_by: 'cfo', expires_at: at, revoked_at: null } });

  it('treats a delegation expiring exactly at the timestamp as expired; one millisecond later is current', () => {
    expect(gate(expiring(T), 3).passed).toBe(false);
    expect(gate(expiring('2026-11-22T12:00:00.001Z'), 3).passed).toBe(true);
    expect(gate(expiring('2026-11-22T11:59:59.999Z'), 3).passed).toBe(false);
  });

  it('fails a revoked delegation, a missing one, and any authority_status but VALID', () => {
    const revoked = inputs({
      delegation: { delegation_id: 'd', granted_by: 'cfo', expires_at: '2027-01-01T00:00:00.000Z', revoked_at: '2026-11-22T11:00:00.000Z' },
    });
    expect(gate(revoked, 3)).toMatchObject({ passed: false, reason: expect.stringMatching(/revoked/) });
    expect(gate(inputs({ delegation: null }), 3).passed).toBe(false);
    expect(gate(inputs({ authority_status: 'EXPIRED' }), 3).passed).toBe(false);
    expect(gate(inputs({ authority_status: 'REVOKED' }), 3).passed).toBe(false);
    expect(evaluateGates(inputs({ authority_status: 'EXPIRED' })).disposition).toBe('DENY');
  });

  it('fails closed on an unreadable timestamp or delegation', () => {
    expect(gate(inputs({ timestamp: 'yesterday' }), 3).reason).toMatch(/fail closed/);
    expect(gate(inputs({ delegation: { delegation_id: 'd' } as never }), 3).reason).toMatch(/fail closed/);
  });
});

describe('gate 4 and the disposition order of CONTRACT §4', () => {
  const tiers = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL', 'EMERGENCY'] as const;
  const expected: Record<string, [string, string]> = {
    // tier: [no human, human present]
    LOW: ['ALLOW', 'ALLOW'],
    MODERATE: ['ALLOW', 'ALLOW'],
    HIGH: ['ALLOW', 'ESCALATE'],
    CRITICAL: ['DENY', 'ESCALATE'],
    EMERGENCY: ['DENY', 'ESCALATE'],
  };
  for (const tier of tiers) {
    for (const human of [false, true]) {
      it(`${tier} with human_present=${human} → ${expected[tier]![human ? 1 : 0]}`, () => {
        expect(evaluateGates(inputs({ consequence_tier: tier, human_present: human })).disposition).toBe(expected[tier]![human ? 1 : 0]);
      });
    }
  }

  it('never escalates when no human can receive it, and a failed gate 1–3 denies before any escalation', () => {
    const unattended = evaluateGates(inputs({ consequence_tier: 'EMERGENCY', human_present: false }));
    expect(unattended.gates[3]).toMatchObject({ gate: 4, name: 'consequence_tier', passed: false });
    expect(unattended.disposition).toBe('DENY');
    expect(evaluateGates(inputs({ consequence_tier: 'CRITICAL', human_present: true, action: 'hr.fire' })).disposition).toBe('DENY');
    expect(evaluateGates(inputs({ consequence_tier: 'HIGH', human_present: true, authority_status: 'EXPIRED' })).disposition).toBe('DENY');
  });

  it('fails closed on an unknown tier or a non-boolean human_present', () => {
    expect(evaluateGates(inputs({ consequence_tier: 'APOCALYPSE' as never })).disposition).toBe('DENY');
    expect(evaluateGates(inputs({ human_present: 'yes' as never })).disposition).toBe('DENY');
  });

  it('denies inputs that are not an object at all, every gate failed rather than skipped', () => {
    for (const bad of [null, 42, 'inputs', [], undefined]) {
      const r = evaluateGates(bad);
      expect(r.disposition).toBe('DENY');
      expect(r.gates.map((g) => g.passed)).toEqual([false, false, false, false]);
    }
  });
});

describe('determinism', () => {
  it('gives the same gate results and disposition for the same bytes, many times', () => {
    const variants = [
      inputs(),
      inputs({ consequence_tier: 'HIGH', human_present: true }),
      inputs({ authority_status: 'EXPIRED' }),
      inputs({ behavior: null }),
    ];
    for (const v of variants) {
      const bytes = canonicalJson(v);
      const first = canonicalJson(evaluateGates(JSON.parse(bytes)));
      for (let i = 0; i < 200; i++) expect(canonicalJson(evaluateGates(JSON.parse(bytes)))).toBe(first);
    }
  });
});
