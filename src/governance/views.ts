import { toIso } from '../lib/time.js';
import type { AgentRow, DelegationRow } from './repo.js';

/** Agent and delegation rows as the operator API answers them (schemas in src/admin/schemas.ts). */

export function agentView(row: AgentRow) {
  return {
    id: row.id,
    profileId: row.profileId,
    agentId: row.agentId,
    mandate: row.mandate,
    baseline: { fingerprint: row.baselineFingerprint, maxDrift: row.baselineMaxDrift },
    createdAt: toIso(row.createdAt),
  };
}

export function delegationView(row: DelegationRow) {
  return {
    id: row.id,
    profileId: row.profileId,
    agentId: row.agentId,
    grantedBy: row.grantedBy,
    expiresAt: toIso(row.expiresAt),
    revokedAt: row.revokedAt ? toIso(row.revokedAt) : null,
    createdAt: toIso(row.createdAt),
  };
}
