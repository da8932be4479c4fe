import type { DbOrTx } from '../db/client.js';
import type { GovernanceDeps } from './deps.js';
import type { Clock } from '../lib/clock.js';
import { keyIdOf } from '../lib/ed25519.js';
import { publishedKeys, type PublishedKey } from '../signing-keys/service.js';
import type { ProfileService } from '../profiles/service.js';
import { governanceErrors as errors } from './errors.js';
import { createAgentTerms, evaluate } from './agent-terms.js';
import { createChainSealer, type SealedLink } from './chain.js';
import * as repo from './repo.js';
import type { DecisionRequest, SealedRecord } from './types.js';
import { agentView, delegationView } from './views.js';

/**
 * The fixed scenario of POST /v1/proof/scenario/run and the self-built bypass attempts runs
 * as a reserved agent that the service creates on demand in each profile, with its own
 * mandate, baseline and a one-year delegation renewed when none is current. Operators
 * cannot create an agent with this id, so the scenario's inputs are the same in every tenant.
 */
const SCENARIO_AGENT_ID = 'proof-scenario-agent';
const SCENARIO_MANDATE = ['scenario.payments.*'];
const SCENARIO_BASELINE = { fingerprint: 'scenario-baseline-v1', maxDrift: 0.1 };
const SCENARIO_DELEGATION_MS = 365 * 24 * 3600_000;

export type GovernanceService = ReturnType<typeof createGovernanceService>;

export function createGovernanceService({ db, clock, signingKey, meter, onSealed }: GovernanceDeps) {
  let keyCache = new Map<string, Uint8Array>([[signingKey.kid, signingKey.publicKey]]);
  const agents = createAgentTerms(db);
  const sealer = createChainSealer({ db, clock, signingKey, recheck: agents.recheck, meter, onSealed });

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
    const terms = await agents.read(profileId, request.agent_id);
    if (!terms) throw errors.agentNotFound();
    return sealer.seal(profileId, evaluate(terms, request));
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
    /** A profile's agents (oldest first) and delegations (newest first), for the operator console (docs/consoles.md, "Consoles"). */
    async profileGovernance(profileId: string) {
      await profiles.requireProfile(profileId);
      const [agents, delegations] = await Promise.all([repo.agentsOfProfile(db, profileId), repo.delegationsOfProfile(db, profileId)]);
      return { agents: agents.map(agentView), delegations: delegations.map(delegationView) };
    },

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

/** The transparency logs' public keys, as GET /v1/governance/log/keys publishes them (also for the operator). */
export { listLogKeys } from './log-keys.js';
export { createOperatorLogReads, openTransparencyLog } from './transparency-log.js';
