/**
 * The published proof-boundary statement: what the service proves and what it does not.
 * Revised with each specification revision (version 1.0, schema suffix v1).
 */
const STATEMENT_SCHEMA = 'governance-evidence/proof-boundaries/v1';
const STATEMENT_VERSION = '1.0';
/** The date this revision of the statement was published. */
const STATEMENT_PUBLISHED = '2026-11-23';

type Answer = 'YES' | 'YES — PARTIAL' | 'PARTIAL' | 'NO' | 'NO — by design' | 'NOT CLAIMED';

const WHAT_PROVES: Record<string, { answer: Answer; detail: string }> = {
  governance_disposition_produced: {
    answer: 'YES',
    detail:
      'A disposition (ALLOW, DENY or ESCALATE) was produced before execution proceeded: POST /v1/governance/decisions seals it, and POST /v1/governance/admit lets only an ALLOW record through.',
  },
  disposition_not_altered: {
    answer: 'YES',
    detail: 'The Ed25519 signature shows the sealed record is unchanged; it is verifiable offline with the public key (verify-record CLI).',
  },
  authority_continuity_evaluated: {
    answer: 'YES',
    detail:
      'Gate 3: the delegation is current, unrevoked and unexpired at the moment of decision, and the asserted authority_status is VALID.',
  },
  mandate_scope_evaluated: { answer: 'YES', detail: "Gate 2: the action is within the agent's declared mandate scope." },
  consequence_tier_evaluated: {
    answer: 'YES',
    detail:
      'Gate 4: the consequence tier and the governance response, including human oversight (CRITICAL or EMERGENCY without a human present is DENY, never ESCALATE).',
  },
  behavioral_continuity_evaluated: {
    answer: 'YES',
    detail: "Gate 1: whether the agent's behavioural state has drifted from its approved baseline.",
  },
  same_condition_replay: {
    answer: 'YES',
    detail: 'The same result on replay of the sealed inputs: POST /v1/governance/replay.',
  },
  changed_condition_replay: {
    answer: 'YES',
    detail:
      'A changed condition gives a different ruling: POST /v1/proof/scenario/run with condition=A or condition=B (authority_status VALID to EXPIRED).',
  },
  offline_verification: {
    answer: 'YES',
    detail: 'The public key plus the canonical JSON specification (RFC 8785) suffice to verify a record; no server and no database.',
  },
  cryptographic_tamper_evidence: {
    answer: 'YES',
    detail: 'Any modification invalidates the signature; records are also hash-chained per tenant (seq, prev_hash).',
  },
  bypass_attempt_rejection: {
    answer: 'YES',
    detail:
      'Deterministic rejections of replayed receipts, modified payloads, expired signatures and timestamp manipulation: POST /v1/challenge/bypass.',
  },
  autonomous_agent_deny: {
    answer: 'YES',
    detail:
      'See States and transitions: human_present=false with consequence tier CRITICAL or EMERGENCY is DENY, not ESCALATE, because no human can receive an escalation.',
  },
  external_independent_validation: {
    answer: 'YES — PARTIAL',
    detail:
      'One third-party attestation signed with ML-DSA-65 over 4 production traces with zero invariant violations, plus an independent validation program for autonomous agents; full institutional witnessing is in a formal agreement phase.',
  },
  sink_acceptance_proof: {
    answer: 'PARTIAL',
    detail:
      'Delivery of the disposition to the governed boundary is proven (GET /v1/carrier/{execution_id}); acceptance or refusal by the protected sink needs sink-side evidence the service cannot produce alone.',
  },
  consequence_boundary_coverage: {
    answer: 'NO — by design',
    detail: 'Proves operation on a protected route, not that no alternate path exists.',
  },
  predicate_truth: { answer: 'NO', detail: 'A signed authority_status is an assertion, not proof that authority is current.' },
  replace_iam: { answer: 'NO', detail: 'Does not replace identity and access management.' },
  replace_siem: { answer: 'NO', detail: 'Produces evidence records and integrates with a SIEM; does not replace it.' },
  replace_edr: { answer: 'NO', detail: 'Does not do endpoint detection and response.' },
  govern_entire_operating_system: { answer: 'NO', detail: 'Governs consequential agent actions at the execution boundary only.' },
  legal_admissibility: { answer: 'NOT CLAIMED', detail: 'No determination of legal admissibility.' },
  regulatory_certification: {
    answer: 'NOT CLAIMED',
    detail: 'Maps to EU AI Act, ISO 42001 and NIST AI RMF requirements but issues no certification.',
  },
};

const CANONICAL_CLAIM =
  'This service gives decision-to-consequence evidence for a specifically protected execution route; complete coverage of the consequence boundary remains unproven.';

/** RFC 3339 with an explicit numeric offset (the server speaks UTC: +00:00). */
function withOffset(at: Date): string {
  return at.toISOString().replace(/Z$/, '+00:00');
}

export function proofBoundaryStatement(publicKey: string, now: Date) {
  return {
    schema: STATEMENT_SCHEMA,
    version: STATEMENT_VERSION,
    published: STATEMENT_PUBLISHED,
    description:
      'Proof boundaries of the Governance Evidence Service: what its sealed Ed25519 governance records prove about AI agent actions at a protected execution boundary, and what they do not.',
    what_proves: WHAT_PROVES,
    canonical_claim: CANONICAL_CLAIM,
    public_key: publicKey,
    verify_endpoint: 'POST /v1/crypto/verify',
    bypass_challenge: 'POST /v1/challenge/bypass',
    carrier_endpoint: 'GET /v1/carrier/{execution_id}',
    timestamp: withOffset(now),
  };
}
