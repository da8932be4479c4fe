import type { ProfileService } from '../profiles/service.js';
import { createExecutionBoundary } from './boundary.js';
import type { GovernanceDeps } from './deps.js';
import { createGovernanceOperatorService, createGovernanceService } from './service.js';
import { createOperatorLogReads, type TransparencyLog } from './transparency-log.js';

/**
 * Every governance service, built once by the composition root (src/compose.ts): the partner
 * API's (decisions and records, the execution boundary, the transparency log) and the operator
 * API's (agents and delegations, the log as the console reads it), over one log, so both sign
 * checkpoints with the same keys.
 */
export function assembleGovernance(deps: GovernanceDeps & { log: TransparencyLog; profiles: ProfileService }) {
  const service = createGovernanceService(deps);
  return {
    service,
    boundary: createExecutionBoundary(service),
    log: deps.log,
    operator: createGovernanceOperatorService(deps),
    logReads: createOperatorLogReads(deps.db, deps.log),
  };
}

export type GovernanceServices = ReturnType<typeof assembleGovernance>;
