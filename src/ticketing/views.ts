import type { z } from 'zod';
import type { venues } from '../db/schema/core.js';
import type { checkIns, issuedTickets, orderItems, orders, ticketTypes, ticketingEvents } from '../db/schema/ticketing.js';
import { toIso, toIsoOrNull } from '../lib/time.js';
import { formatCents } from './money.js';
import type * as s from './schemas.js';

/** How rows become the API's resources: one place, shared by the partner API, the operator API and webhooks. */

export type EventRow = typeof ticketingEvents.$inferSelect;
export type VenueRow = typeof venues.$inferSelect;
export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type TicketRow = typeof issuedTickets.$inferSelect;
export type CheckInRow = typeof checkIns.$inferSelect;

export const CURRENCY = 'USD';

/** What an event's resource is made of (the columns eventView writes, and the trigger of its stored resource JSON). */
type EventViewRow = Pick<
  EventRow,
  | 'id'
  | 'name'
  | 'description'
  | 'status'
  | 'startsAt'
  | 'endsAt'
  | 'timezone'
  | 'allDay'
  | 'address'
  | 'city'
  | 'placeId'
  | 'ticketMode'
  | 'imageUrl'
  | 'createdAt'
  | 'updatedAt'
>;

/**
 * An event as the API writes it. Creation and reads (POST /events, GET /events and /events/{id})
 * send the same JSON as PostgreSQL stored it with the row (ticketingEvents.resourceJson, written
 * by the trigger of migration 0006); test/ticketing/event-list.test.ts holds the two alike.
 */
export function eventView(row: EventViewRow): z.infer<typeof s.event> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    startsAt: toIso(row.startsAt),
    endsAt: toIsoOrNull(row.endsAt),
    timezone: row.timezone,
    allDay: row.allDay,
    address: row.address,
    city: row.city,
    placeId: row.placeId,
    ticketMode: row.ticketMode,
    imageUrl: row.imageUrl,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export function ticketTypeView(row: TicketTypeRow): z.infer<typeof s.ticketType> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    partySize: row.partySize,
    price: formatCents(row.priceCents),
    quantity: row.quantity,
    sold: row.sold,
    salesEndAt: toIsoOrNull(row.salesEndAt),
    isActive: row.isActive,
  };
}

/** `withBuyer` is the attendees:read scope: without it the key is absent, not null. */
export function orderView(row: OrderRow, items: OrderItemRow[], withBuyer: boolean): z.infer<typeof s.order> {
  return {
    id: row.id,
    eventId: row.eventId,
    status: row.status,
    totalAmount: formatCents(row.totalCents),
    currency: row.currency,
    createdAt: toIso(row.createdAt),
    checkedIn: row.checkedIn,
    checkedInAt: toIsoOrNull(row.checkedInAt),
    items: items.map((i) => ({ ticketTypeId: i.ticketTypeId, quantity: i.quantity, unitPrice: formatCents(i.unitPriceCents) })),
    ...(withBuyer ? { buyer: { name: row.buyerName, email: row.buyerEmail } } : {}),
  };
}

export function ticketView(row: TicketRow, withHolder: boolean): z.infer<typeof s.issuedTicket> {
  return {
    id: row.id,
    orderId: row.orderId,
    ticketTypeId: row.ticketTypeId,
    quantity: row.quantity,
    checkedIn: row.checkedIn,
    checkedInAt: toIsoOrNull(row.checkedInAt),
    ...(withHolder ? { holder: { name: row.holderName, email: row.holderEmail } } : {}),
  };
}

export function checkInView(row: CheckInRow): z.infer<typeof s.checkIn> {
  return {
    id: row.id,
    orderId: row.orderId,
    result: row.result,
    reasonCode: row.reasonCode,
    scannedAt: toIso(row.scannedAt),
  };
}
