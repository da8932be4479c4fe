import type { TicketingDeps } from './deps.js';
import { windowOf, type PageRequest } from './events.js';
import * as repo from './repo.js';
import { checkInView, ticketView, type CheckInRow, type EventRow } from './views.js';

type Verdict = Pick<CheckInRow, 'result' | 'reasonCode' | 'orderId' | 'ticketId'>;

/**
 * The door: every scan is recorded with its verdict. ALLOW is the first entry of a live ticket
 * of this event; a second scan is FLAG ALREADY_CHECKED_IN; DENY names why (TICKET_REFUNDED,
 * WRONG_EVENT, UNKNOWN_TICKET — another profile's ticket is unknown here, and its order stays unnamed).
 */
export function createDoorService({ db, clock, webhooks }: TicketingDeps) {
  return {
    async listCheckIns(eventId: string, page: PageRequest) {
      const { rows, total } = await repo.listCheckIns(db, eventId, windowOf(page));
      return { items: rows.map(checkInView), ...page, total };
    },

    async scan(event: EventRow, scanned: string) {
      return db.transaction(async (tx) => {
        const now = clock.now();
        const found = await repo.findTicketForScan(tx, scanned);
        let verdict: Verdict;
        if (!found || found.profileId !== event.profileId) {
          verdict = { result: 'DENY', reasonCode: 'UNKNOWN_TICKET', orderId: null, ticketId: null };
        } else {
          const { ticket } = found;
          const deny = (reasonCode: string): Verdict => ({ result: 'DENY', reasonCode, orderId: ticket.orderId, ticketId: ticket.id });
          if (ticket.eventId !== event.id) verdict = deny('WRONG_EVENT');
          else if (ticket.voidedAt || found.orderStatus !== 'CONFIRMED') verdict = deny('TICKET_REFUNDED');
          else {
            const entered = await repo.checkInTicket(tx, ticket.id, now);
            if (!entered) {
              verdict = { result: 'FLAG', reasonCode: 'ALREADY_CHECKED_IN', orderId: ticket.orderId, ticketId: ticket.id };
            } else {
              verdict = { result: 'ALLOW', reasonCode: null, orderId: ticket.orderId, ticketId: ticket.id };
              await repo.checkInOrderIfComplete(tx, ticket.orderId, now);
              await webhooks.publish(tx, {
                profileId: event.profileId,
                type: 'ticket.checked_in',
                data: { ...ticketView(entered, true), eventId: event.id },
              });
            }
          }
        }
        return checkInView(await repo.insertCheckIn(tx, { eventId: event.id, ...verdict, scannedAt: now }));
      });
    },
  };
}
