import type { GovernanceServices } from '../governance/assembly.js';
import type { IdentityServices } from '../identity/assembly.js';
import type { ProfileService } from '../profiles/service.js';
import type { TicketingService } from '../ticketing/service.js';

/**
 * What the operator API works through: the services the partner APIs use, the same instances,
 * handed over by the composition root (src/compose.ts). Its routes build none of their own.
 */
export interface OperatorServices {
  profiles: ProfileService;
  ticketing: TicketingService;
  identity: IdentityServices;
  governance: GovernanceServices;
}

/** The options every operator route plugin is registered with. */
export interface OperatorRouteOptions {
  services: OperatorServices;
}
