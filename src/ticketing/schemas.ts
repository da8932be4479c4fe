import { z } from 'zod';
import { envelope, errorEnvelope } from '../plugins/envelope-schemas.js';
import { isTimeZone } from '../lib/time.js';
import { EVENT_STATUSES, ORDER_STATUSES, TICKET_TYPE_KINDS } from '../db/vocabulary.js';
import { PRICE_PATTERN } from './money.js';

export { envelope, errorEnvelope };

const eventStatus = z.enum(EVENT_STATUSES);
export const ticketMode = z.enum(['SERVICE', 'EXTERNAL', 'FREE']);
export const orderStatus = z.enum(ORDER_STATUSES);

const dateTime = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time' });
/** Names already found valid: building an Intl.DateTimeFormat to check one costs ~0.1 ms. Bounded, as spellings vary. */
const knownTimeZones = new Set<string>();
function isKnownTimeZone(name: string): boolean {
  if (knownTimeZones.has(name)) return true;
  if (!isTimeZone(name)) return false;
  if (knownTimeZones.size >= 1_000) knownTimeZones.clear();
  knownTimeZones.add(name);
  return true;
}
const timeZone = z.string().refine(isKnownTimeZone, 'unknown time-zone name');
/** Ids in paths are checked by the record loaders: a value that is not a UUID is answered 404. */
const pathId = z.string();

export const eventParams = z.object({ eventId: pathId });
export const orderParams = z.object({ orderId: pathId });

// ---- query strings ---------------------------------------------------------------------

const wholeNumber = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

export const pageQuery = z.object({
  page: wholeNumber(1, 1_000_000).default(1),
  limit: wholeNumber(1, 100).default(20),
});
export const eventListQuery = pageQuery.extend({ status: eventStatus.optional() });
export const orderListQuery = pageQuery.extend({ status: z.string().max(50).optional() });

// ---- request bodies ----------------------------------------------------------------------

function endsAfterStart(v: { eventStartsAt?: string; eventEndsAt?: string }, ctx: z.RefinementCtx) {
  if (v.eventStartsAt && v.eventEndsAt && Date.parse(v.eventEndsAt) <= Date.parse(v.eventStartsAt)) {
    ctx.addIssue({ code: 'custom', path: ['eventEndsAt'], message: 'must be after eventStartsAt' });
  }
}

export const eventCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(10_000),
    address: z.string().trim().min(1).max(500),
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    categories: z.array(z.string().trim().min(1).max(100)).min(1).max(20),
    placeId: z.guid(),
    eventStartsAt: dateTime,
    eventEndsAt: dateTime.optional(),
    timezone: timeZone.optional(),
    email: z.email().max(320).optional(),
    website: z.url().max(2000).optional(),
    phoneNumber: z.string().trim().min(1).max(50).optional(),
    city: z.string().trim().min(1).max(200).optional(),
    ticketMode: ticketMode.optional(),
    ticketUrl: z.url().max(2000).optional(),
    offersVipTables: z.boolean().optional(),
  })
  .superRefine(endsAfterStart);
export type EventCreate = z.infer<typeof eventCreate>;

/** Only the seven fields the interface's property list names; placeId can never change. */
export const eventUpdate = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).optional(),
    address: z.string().trim().min(1).max(500).optional(),
    eventStartsAt: dateTime.optional(),
    eventEndsAt: dateTime.optional(),
    timezone: timeZone.optional(),
    ticketMode: ticketMode.optional(),
  })
  .superRefine(endsAfterStart);
export type EventUpdate = z.infer<typeof eventUpdate>;

// ---- responses -----------------------------------------------------------------------------

export const event = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  status: eventStatus,
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  timezone: z.string().nullable(),
  allDay: z.boolean(),
  address: z.string(),
  city: z.string().nullable(),
  placeId: z.uuid(),
  ticketMode,
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const person = z.object({ name: z.string().nullable(), email: z.string().nullable() });

export const ticketType = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  kind: z.enum(TICKET_TYPE_KINDS),
  partySize: z.number().int().nullable(),
  price: z.string(),
  quantity: z.number().int(),
  sold: z.number().int(),
  salesEndAt: z.string().nullable(),
  isActive: z.boolean(),
});

export const order = z.object({
  id: z.uuid(),
  eventId: z.uuid(),
  status: z.string(),
  totalAmount: z.string(),
  currency: z.string(),
  createdAt: z.string(),
  checkedIn: z.boolean(),
  checkedInAt: z.string().nullable(),
  items: z.array(z.object({ ticketTypeId: z.string().nullable(), quantity: z.number().int(), unitPrice: z.string() })),
  buyer: person.optional(),
});

export const issuedTicket = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  ticketTypeId: z.string().nullable(),
  quantity: z.number().int(),
  checkedIn: z.boolean(),
  checkedInAt: z.string().nullable(),
  holder: person.optional(),
});

export const checkIn = z.object({
  id: z.uuid(),
  orderId: z.string().nullable(),
  result: z.enum(['ALLOW', 'DENY', 'FLAG']).nullable(),
  reasonCode: z.string().nullable(),
  scannedAt: z.string(),
});

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), page: z.number().int(), limit: z.number().int(), total: z.number().int() });

// ---- operator bodies (/admin/v1) ------------------------------------------------------------

export const ticketTypeCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    kind: z.enum(TICKET_TYPE_KINDS),
    partySize: z.number().int().min(1).max(1000).optional(),
    price: z.string().regex(PRICE_PATTERN, 'a decimal amount with at most two fraction digits, like "25.00"'),
    quantity: z.number().int().min(0).max(1_000_000),
    salesEndAt: dateTime.optional(),
    isActive: z.boolean().optional(),
  })
  .refine((v) => v.kind === 'TABLE' || v.partySize === undefined, {
    path: ['partySize'],
    message: 'partySize applies to TABLE ticket types only',
  });
export type TicketTypeCreate = z.infer<typeof ticketTypeCreate>;

export const orderCreate = z.strictObject({
  items: z
    .array(z.strictObject({ ticketTypeId: z.guid(), quantity: z.number().int().min(1).max(1000) }))
    .min(1)
    .max(50),
  buyer: z.strictObject({ name: z.string().trim().min(1).max(200), email: z.email().max(320) }),
  status: z.enum(['PENDING', 'CONFIRMED']).optional(),
});
export type OrderCreate = z.infer<typeof orderCreate>;

export const eventStatusChange = z.strictObject({ status: z.enum(['ACTIVE', 'INACTIVE', 'ARCHIVED']) });

export const checkInScan = z.strictObject({ ticketId: z.string().min(1).max(200) });
