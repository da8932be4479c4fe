import type { Db, DbOrTx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { keyIdOf } from '../lib/ed25519.js';
import { publishedKeys, type PublishedKey, type SigningKey } from '../signing-keys/service.js';
import type { ProfileService } from '../profiles/service.js';
import { governanceErrors as errors } from './errors.js';
import { createChainSealer, type SealedLink } from './chain.js';
import { evaluateGates } from './policy.js';
import * as repo from './repo.js';
import type { DecisionInputs, DelegationSnapshot, SealedRecord } from './types.js';
import { agentView, delegationView } from './views.js';

/**
 * The fixed scenario of POST /v1/proof/scenario/run and the self-built bypass attempts runs
 * as a reserved agent that the service creates on demand in each profile, with its own
 * mandate, baseline and a one-year delegation renewed when none is current. Operators
 * cannot create an agent with this id, so the scenario's inputs are the same in every tenant.
 */
export const SCENARIO_AGENT_ID = 'proof-scenario-agent';
const SCENARIO_MANDATE = ['scenario.payments.*'];
const SCENARIO_BASELINE = { fingerprint: 'scenario-baseline-v1', maxDrift: 0.1 };
const SCENARIO_DELEGATION_MS = 365 * 24 * 3600_000;

/** What a caller asserts; the service adds the agent's mandate, baseline and delegation. */
export type DecisionRequest = Pick<
  DecisionInputs,
  'agent_id' | 'action' | 'authority_status' | 'human_present' | 'consequence_tier' | 'timestamp'
> & {
  behavior?: { fingerprint: string; drift: number } | undefined;
};

export interface GovernanceDeps {
  db: Db;
  clock: Clock;
  signingKey: SigningKey;
}

export type GovernanceService = ReturnType<typeof createGovernanceService>;

/** The delegation in force at `at` (latest expiry first); otherwise the newest one, so the gate can say why it fails. */
function delegationAsOf(rows: repo.DelegationTerms[], at: number): DelegationSnapshot | null {
  const current = rows
    .filter((d) => !d.revokedAt && d.expiresAt.getTime() > at)
    .sort((a, b) => b.expiresAt.getTime() - a.expiresAt.getTime())[0];
  const chosen = current ?? rows[0];
  if (!chosen) return null;
  return {
    delegation_id: chosen.id,
    granted_by: chosen.grantedBy,
    expires_at: chosen.expiresAt.toISOString(),
    revoked_at: chosen.revokedAt ? chosen.revokedAt.toISOString() : null,
  };
}

export function createGovernanceService({ db, clock, signingKey }: GovernanceDeps) {
  let keyCache = new Map<string, Uint8Array>([[signingKey.kid, signingKey.publicKey]]);
  const sealer = createChainSealer({ db, clock, signingKey });

  /** Every published key by id; reloaded on a miss so keys another instance rotated in are found. */
  async function verificationKeys(kid?: string): Promise<ReadonlyMap<string, Uint8Array>> {
    if (kid !== undefined && keyCache.has(kid)) return keyCache;
    const rows = await publishedKeys(db, 'governance');
    const next = new Map<string, Uint8Array>([[signingKey.kid, signingKey.publicKey]]);
    for (const row of rows) {
      const raw = Buffer.from(row.publicKey, 'base64');
      if (keyIdOf(raw) === row.kid) next.set(row.kid, raw);
    }
    keyCache = next;
    return keyCache;
  }

  async function listKeys(): Promise<PublishedKey[]> {
    return publishedKeys(db, 'governance');
  }

  /**
   * Evaluates the four gates and seals the record as the next link of the profile's chain; the
   * record with its canonical JSON text.
   */
  async function decide(profileId: string, request: DecisionRequest): Promise<SealedLink> {
    const found = await repo.agentWithDelegations(db, profileId, request.agent_id);
    if (!found) throw errors.agentNotFound();
    const { agent, delegations } = found;
    const timestamp = new Date(request.timestamp).toISOString();
    const delegation = delegationAsOf(delegations, Date.parse(timestamp));
    const inputs: DecisionInputs = {
      agent_id: agent.agentId,
      action: request.action,
      authority_status: request.authority_status,
      human_present: request.human_present,
      consequence_tier: request.consequence_tier,
      timestamp,
      behavior: request.behavior ? { fingerprint: request.behavior.fingerprint, drift: request.behavior.drift } : null,
      mandate: [...agent.mandate],
      baseline: { fingerprint: agent.baselineFingerprint, max_drift: agent.baselineMaxDrift },
      delegation,
    };
    const { gates, disposition } = evaluateGates(inputs);
    return sealer.seal(profileId, { agentId: agent.agentId, action: request.action, inputs, gates, disposition });
  }

  async function ensureScenarioAgent(profileId: string): Promise<void> {
    const now = clock.now();
    await repo.insertAgent(db, {
      profileId,
      agentId: SCENARIO_AGENT_ID,
      mandate: SCENARIO_MANDATE,
      baselineFingerprint: SCENARIO_BASELINE.fingerprint,
      baselineMaxDrift: SCENARIO_BASELINE.maxDrift,
      createdAt: now,
    });
    const renewBefore = now.getTime() + 24 * 3600_000;
    const delegations = await repo.delegationsOf(db, profileId, SCENARIO_AGENT_ID);
    if (!delegations.some((d) => !d.revokedAt && d.expiresAt.getTime() > renewBefore)) {
      await repo.insertDelegation(db, {
        profileId,
        agentId: SCENARIO_AGENT_ID,
        grantedBy: 'governance-proof-scenario',
        expiresAt: new Date(now.getTime() + SCENARIO_DELEGATION_MS),
        createdAt: now,
      });
    }
  }

  /** The fixed scenario: every condition good, except what `overrides` changes. */
  async function decideScenario(profileId: string, overrides: Partial<DecisionRequest> = {}): Promise<SealedRecord> {
    await ensureScenarioAgent(profileId);
    const sealed = await decide(profileId, {
      agent_id: SCENARIO_AGENT_ID,
      action: 'scenario.payments.transfer',
      authority_status: 'VALID',
      human_present: true,
      consequence_tier: 'MODERATE',
      timestamp: clock.now().toISOString(),
      behavior: { fingerprint: SCENARIO_BASELINE.fingerprint, drift: 0.02 },
      ...overrides,
    });
    return sealed.record;
  }

  async function runScenario(profileId: string, condition: 'A' | 'B') {
    const changed = condition === 'B' ? { field: 'authority_status', from: 'VALID', to: 'EXPIRED' } : null;
    const record = await decideScenario(profileId, condition === 'B' ? { authority_status: 'EXPIRED' } : {});
    // The sealed record's fields at the top level (the record, plus changed_condition), and the
    // record alone under `record`, exactly as signed, to hand to verify, replay or admit.
    return { ...record, condition, changed_condition: changed, record };
  }

  async function carrier(profileId: string, executionId: string) {
    const row = await repo.findRecord(db, { executionId, profileId });
    if (!row) throw errors.carrierNotFound();
    const deliveries = await repo.deliveriesOf(db, profileId, executionId);
    return {
      execution_id: executionId,
      record: JSON.parse(row.canonical) as SealedRecord,
      deliveries: deliveries.map((d) => ({ admitted_at: d.attemptedAt.toISOString(), result: d.result })),
    };
  }

  /**
   * One page of the profile's chain, each record exactly as it was sealed (parsed from the
   * stored canonical text), for offline verification with `verify-record --chain`.
   */
  async function exportRecords(profileId: string, afterSeq: number, limit: number) {
    const rows = await repo.recordsAfter(db, profileId, afterSeq, limit + 1);
    const page = rows.slice(0, limit);
    return {
      records: page.map((row) => JSON.parse(row.canonical) as SealedRecord),
      next_after_seq: rows.length > limit ? page[page.length - 1]!.seq : null,
    };
  }

  return { db, clock, signingKey, verificationKeys, listKeys, decide, decideScenario, runScenario, carrier, exportRecords };
}

/**
 * The operator's side of governance (the operator API's agents and delegations): registering an
 * agent with its mandate and baseline, delegating to it and revoking. The scenario agent's id is
 * reserved for the proof scenarios.
 */
export function createGovernanceOperatorService({ db, clock, profiles }: { db: DbOrTx; clock: Clock; profiles: ProfileService }) {
  return {
    async registerAgent(input: {
      profileId: string;
      agentId: string;
      mandate: string[];
      baseline: { fingerprint: string; maxDrift: number };
    }) {
      if (input.agentId === SCENARIO_AGENT_ID) throw errors.agentIdReserved(SCENARIO_AGENT_ID);
      await profiles.requireProfile(input.profileId);
      const row = await repo.insertAgent(db, {
        profileId: input.profileId,
        agentId: input.agentId,
        mandate: input.mandate,
        baselineFingerprint: input.baseline.fingerprint,
        baselineMaxDrift: input.baseline.maxDrift,
        createdAt: clock.now(),
      });
      if (!row) throw errors.agentExists(input.agentId);
      return agentView(row);
    },

    async delegate(input: { profileId: string; agentId: string; grantedBy: string; expiresAt: string }) {
      await profiles.requireProfile(input.profileId);
      if (!(await repo.findAgent(db, input.profileId, input.agentId))) throw errors.agentNotFound();
      const row = await repo.insertDelegation(db, {
        profileId: input.profileId,
        agentId: input.agentId,
        grantedBy: input.grantedBy,
        expiresAt: new Date(input.expiresAt),
        createdAt: clock.now(),
      });
      return delegationView(row);
    },

    /** Idempotent: a second revocation keeps the first revocation time. */
    async revokeDelegation(id: string) {
      const row = await repo.revokeDelegation(db, id, clock.now());
      if (!row) throw errors.delegationNotFound();
      return delegationView(row);
    },
  };
}
