import { configFrom } from '../../config.js';
import type { BoundaryService } from '../boundary.js';
import * as s from '../schemas.js';
import type { GovernanceService } from '../service.js';
import type { TransparencyLog } from '../transparency-log.js';

/** What plugin.ts gives each of the governance API's path scopes. */
export interface RouteDeps {
  service: GovernanceService;
  boundary: BoundaryService;
  log: TransparencyLog;
}

export const tags = ['governance'];
export const rateNote = `Rate limit: GOVERNANCE_RATE_LIMIT_PER_MINUTE (default ${configFrom().GOVERNANCE_RATE_LIMIT_PER_MINUTE}) requests per minute per API key (per client IP on public routes).`;
/** The error answers of a route whose refusals include the execution boundary's rejections. */
export const withRejections = { ...s.errors, 409: s.errorBody, 422: s.errorBody };
