import { createDoorService } from './door.js';
import { createEventService, type TicketingDeps } from './events.js';
import { createSalesService } from './sales.js';

export type { TicketingDeps } from './events.js';

/** Everything ticketing does, for the partner API and the operator API alike. */
export function createTicketingService(deps: TicketingDeps) {
  return {
    events: createEventService(deps),
    sales: createSalesService(deps),
    door: createDoorService(deps),
  };
}

export type TicketingService = ReturnType<typeof createTicketingService>;
