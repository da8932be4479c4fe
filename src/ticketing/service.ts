import { createDoorService } from './door.js';
import type { TicketingDeps } from './deps.js';
import { createEventService } from './events.js';
import { createSalesService } from './sales.js';
import type { DbOrTx } from '../db/client.js';
import type { Window } from '../db/paged.js';
import type { EventStatus } from '../db/vocabulary.js';
import * as repo from './repo.js';
import { eventView } from './views.js';

export type { TicketingDeps } from './deps.js';

/**
 * Everything ticketing does, for the partner API and the operator API alike, built once by the
 * composition root (src/compose.ts).
 */
export function createTicketingService(deps: TicketingDeps) {
  return {
    events: createEventService(deps),
    sales: createSalesService(deps),
    door: createDoorService(deps),
    reads: createTicketingOperatorReads(deps.db),
  };
}

export type TicketingService = ReturnType<typeof createTicketingService>;

/** What the operator console reads of ticketing (docs/consoles.md, "Consoles"): a profile's events. Reads only. */
export function createTicketingOperatorReads(db: DbOrTx) {
  return {
    /** A profile's events in every status or one, latest start first: one page and the total. */
    async events(profileId: string, status: EventStatus | undefined, w: Window) {
      const { rows, total } = await repo.eventsOfProfile(db, profileId, status, w);
      return { items: rows.map(eventView), total };
    },
  };
}
