import type { Disposition, GateResult } from './types.js';

/**
 * The four governance gates and the disposition rule, as one pure function of the decision
 * inputs: no clock, no database, no randomness. The same inputs give the same gate results
 * and disposition every time, which is what makes a sealed record replayable.
 *
 * It takes `unknown` on purpose: a replayed record may have been tampered with, and a gate
 * that cannot read its inputs fails (fail closed) instead of being skipped.
 */
export const POLICY_VERSION = 'governance-gates/1.0';

const TIER_RANK: Record<string, number> = { LOW: 0, MODERATE: 1, HIGH: 2, CRITICAL: 3, EMERGENCY: 4 };
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface Evaluation {
  gates: GateResult[];
  disposition: Disposition;
}

class GateInputError extends Error {}

function field<T>(obj: unknown, name: string, check: (v: unknown) => v is T, what: string): T {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new GateInputError(`inputs are not an object`);
  const value = (obj as Record<string, unknown>)[name];
  if (!check(value)) throw new GateInputError(`${name} is not ${what}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function instant(value: string, name: string): number {
  if (!RFC3339.test(value)) throw new GateInputError(`${name} is not an RFC 3339 time`);
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new GateInputError(`${name} is not a valid time`);
  return ms;
}

/**
 * Mandate patterns are dot-separated. `*` as a segment matches exactly one segment, except as
 * the last segment where it matches one or more (`payments.*` covers `payments.refund` and
 * `payments.refund.partial`, not `payments`). A lone `*` matches every action.
 */
export function actionMatches(pattern: string, action: string): boolean {
  const p = pattern.split('.');
  const a = action.split('.');
  for (let i = 0; i < p.length; i++) {
    const seg = p[i]!;
    if (seg === '*' && i === p.length - 1) return a.length > i && a.slice(i).every((s) => s.length > 0);
    if (i >= a.length) return false;
    if (seg === '*') {
      if (a[i]!.length === 0) return false;
      continue;
    }
    if (seg !== a[i]) return false;
  }
  return p.length === a.length;
}

function behavioralContinuity(inputs: unknown): [boolean, string] {
  const baseline = field(inputs, 'baseline', isObject, 'an object');
  const fingerprint = field(baseline, 'fingerprint', isString, 'a string');
  const maxDrift = field(baseline, 'max_drift', isNumber, 'a finite number');
  const behavior = (inputs as Record<string, unknown>).behavior;
  if (behavior === null) return [true, 'no behavioural observation was reported; nothing deviates from the approved baseline'];
  const observed = field(inputs, 'behavior', isObject, 'an object or null');
  const observedFingerprint = field(observed, 'fingerprint', isString, 'a string');
  const drift = field(observed, 'drift', isNumber, 'a finite number');
  if (drift < 0) throw new GateInputError('behavior.drift is negative');
  if (observedFingerprint !== fingerprint) return [false, 'behavioural fingerprint differs from the approved baseline'];
  if (drift > maxDrift) return [false, `drift ${drift} exceeds the approved maximum ${maxDrift}`];
  return [true, `drift ${drift} is within the approved maximum ${maxDrift}`];
}

function mandateScope(inputs: unknown): [boolean, string] {
  const action = field(inputs, 'action', isString, 'a string');
  const mandate = field(inputs, 'mandate', isStringArray, 'a list of action patterns');
  if (action.length === 0) throw new GateInputError('action is empty');
  const match = mandate.find((pattern) => actionMatches(pattern, action));
  return match ? [true, `action is within the mandate pattern ${match}`] : [false, 'action is outside the declared mandate'];
}

function authorityContinuity(inputs: unknown): [boolean, string] {
  const status = field(inputs, 'authority_status', isString, 'a string');
  const at = instant(field(inputs, 'timestamp', isString, 'a string'), 'timestamp');
  const delegation = (inputs as Record<string, unknown>).delegation;
  if (delegation === null) return [false, 'the agent holds no delegation'];
  const d = field(inputs, 'delegation', isObject, 'an object or null');
  const expiresAt = instant(field(d, 'expires_at', isString, 'a string'), 'delegation.expires_at');
  const revokedAt = d.revoked_at;
  if (revokedAt !== null) {
    instant(field(d, 'revoked_at', isString, 'a string or null'), 'delegation.revoked_at');
    return [false, 'the delegation was revoked'];
  }
  if (expiresAt <= at) return [false, 'the delegation had expired at the moment of decision'];
  if (status !== 'VALID') return [false, `asserted authority_status is ${status}`];
  return [true, 'the delegation is current, unrevoked and unexpired, and authority is asserted VALID'];
}

function consequenceTier(inputs: unknown): [boolean, string] {
  const tier = field(inputs, 'consequence_tier', isString, 'a string');
  const human = field(inputs, 'human_present', isBoolean, 'a boolean');
  const rank = TIER_RANK[tier];
  if (rank === undefined) throw new GateInputError(`consequence_tier ${tier} is unknown`);
  if (rank >= TIER_RANK.CRITICAL! && !human) return [false, `${tier} consequence with no human present: no one can receive an escalation`];
  if (rank >= TIER_RANK.HIGH! && human) return [true, `${tier} consequence with a human present: escalate for human oversight`];
  return [true, `${tier} consequence: no human oversight required`];
}

const GATES = [
  [1, 'behavioral_continuity', behavioralContinuity],
  [2, 'mandate_scope', mandateScope],
  [3, 'authority_continuity', authorityContinuity],
  [4, 'consequence_tier', consequenceTier],
] as const;

export function evaluateGates(inputs: unknown): Evaluation {
  const gates: GateResult[] = GATES.map(([gate, name, run]) => {
    try {
      const [passed, reason] = run(inputs);
      return { gate, name, passed, reason };
    } catch (err) {
      const detail = err instanceof GateInputError ? err.message : 'the gate could not evaluate its inputs';
      return { gate, name, passed: false, reason: `gate error (fail closed): ${detail}` };
    }
  });
  return { gates, disposition: dispositionOf(inputs, gates) };
}

/** The disposition rule (src/governance/README.md): a failed gate 1–3 denies; gate 4 denies unattended CRITICAL/EMERGENCY; HIGH+ with a human escalates. */
function dispositionOf(inputs: unknown, gates: GateResult[]): Disposition {
  if (gates.some((g) => !g.passed)) return 'DENY';
  const tier = (inputs as Record<string, unknown>).consequence_tier as string;
  const human = (inputs as Record<string, unknown>).human_present as boolean;
  if (TIER_RANK[tier]! >= TIER_RANK.HIGH! && human) return 'ESCALATE';
  return 'ALLOW';
}
