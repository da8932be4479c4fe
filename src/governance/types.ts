export const TIERS = ['LOW', 'MODERATE', 'HIGH', 'CRITICAL', 'EMERGENCY'] as const;
type ConsequenceTier = (typeof TIERS)[number];
export const AUTHORITY_STATUSES = ['VALID', 'EXPIRED', 'REVOKED'] as const;
type AuthorityStatus = (typeof AUTHORITY_STATUSES)[number];
export type Disposition = 'ALLOW' | 'DENY' | 'ESCALATE';

/** A delegation as it stood when the decision was taken. */
export type DelegationSnapshot = {
  delegation_id: string;
  granted_by: string;
  expires_at: string;
  revoked_at: string | null;
};

/** Everything the gates read: the request plus the agent's mandate, baseline and delegation as of the decision. */
export type DecisionInputs = {
  agent_id: string;
  action: string;
  authority_status: AuthorityStatus;
  human_present: boolean;
  consequence_tier: ConsequenceTier;
  timestamp: string;
  behavior: { fingerprint: string; drift: number } | null;
  mandate: string[];
  baseline: { fingerprint: string; max_drift: number };
  delegation: DelegationSnapshot | null;
};

/** What a caller asserts; the service adds the agent's mandate, baseline and delegation. */
export type DecisionRequest = Pick<
  DecisionInputs,
  'agent_id' | 'action' | 'authority_status' | 'human_present' | 'consequence_tier' | 'timestamp'
> & {
  behavior?: { fingerprint: string; drift: number } | null | undefined;
};

export type GateResult = {
  gate: 1 | 2 | 3 | 4;
  name: 'behavioral_continuity' | 'mandate_scope' | 'authority_continuity' | 'consequence_tier';
  passed: boolean;
  reason: string;
};

export type UnsignedRecord = {
  record_id: string;
  execution_id: string;
  agent_id: string;
  action: string;
  inputs: DecisionInputs;
  gates: GateResult[];
  disposition: Disposition;
  policy_version: string;
  issued_at: string;
  expires_at: string;
  nonce: string;
  seq: number;
  prev_hash: string;
  key_id: string;
};

export type SealedRecord = UnsignedRecord & {
  signature: string;
};
