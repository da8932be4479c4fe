import type { Db } from '../db/client.js';
import type { Decision, Recheck } from './chain.js';
import { governanceErrors as errors } from './errors.js';
import { evaluateGates } from './policy.js';
import * as repo from './repo.js';
import type { DecisionInputs, DecisionRequest, DelegationSnapshot } from './types.js';

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

/** The gates' verdict on a request, from the agent's terms as read (at the agent's version). */
export function evaluate({ agent, delegations }: repo.AgentTerms, request: DecisionRequest): Decision {
  const timestamp = new Date(request.timestamp).toISOString();
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
    delegation: delegationAsOf(delegations, Date.parse(timestamp)),
  };
  const { gates, disposition } = evaluateGates(inputs);
  return { agentId: agent.agentId, agentVersion: agent.version, action: request.action, inputs, gates, disposition };
}

/** How many agents an instance remembers; past it, it forgets them all and re-reads. */
const REMEMBERED_AGENTS = 10_000;

/**
 * Agents with their delegations as this instance last read them, by profile and agent id. A
 * decision is evaluated from this copy, which saves a round trip per decision; the chain sealer
 * writes it only while the agent's version is unchanged, and otherwise `recheck` re-evaluates it
 * on the agent's current row and refreshes the copy (src/governance/chain.ts). Unknown agents are
 * not remembered, so an agent registered meanwhile is found at once.
 */
export function createAgentTerms(db: Db) {
  const remembered = new Map<string, repo.AgentTerms>();
  const keyOf = (profileId: string, agentId: string) => `${profileId}\u0000${agentId}`;
  function remember(profileId: string, terms: repo.AgentTerms) {
    if (remembered.size >= REMEMBERED_AGENTS) remembered.clear();
    remembered.set(keyOf(profileId, terms.agent.agentId), terms);
  }

  /** The agent's terms, remembered or read; undefined when the profile has no such agent. */
  async function read(profileId: string, agentId: string): Promise<repo.AgentTerms | undefined> {
    const known = remembered.get(keyOf(profileId, agentId));
    if (known) return known;
    const terms = await repo.agentWithDelegations(db, profileId, agentId);
    if (terms) remember(profileId, terms);
    return terms;
  }

  const recheck: Recheck = async (tx, profileId, batch) => {
    const agentIds = [...new Set(batch.map((d) => d.agentId))];
    const current = await repo.lockAgentTerms(tx, profileId, agentIds);
    for (const agentId of agentIds) {
      const terms = current.get(agentId);
      if (terms) remember(profileId, terms);
      else remembered.delete(keyOf(profileId, agentId));
    }
    return batch.map((decision) => {
      const terms = current.get(decision.agentId);
      if (!terms) return errors.agentNotFound();
      return terms.agent.version === decision.agentVersion ? decision : evaluate(terms, decision.inputs);
    });
  };

  return { read, recheck };
}
