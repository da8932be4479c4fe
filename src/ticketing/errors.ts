import { EnvelopeError, notFound, validationError } from '../plugins/envelope-errors.js';

/** The ticketing error catalogue: every named code with its status, in one place. */
export const ticketingErrors = {
  unauthorized: () => new EnvelopeError(401, 'UNAUTHORIZED', 'A valid API key is required: Authorization: Bearer <key>'),
  featureNotAvailable: () => new EnvelopeError(403, 'FEATURE_NOT_AVAILABLE', 'The Ticketing Partner API is part of the Enterprise plan'),
  insufficientScope: (scope: string) => new EnvelopeError(403, 'INSUFFICIENT_SCOPE', `This key lacks the scope ${scope}`),
  rateLimited: (after: string) => new EnvelopeError(429, 'RATE_LIMITED', `Rate limit exceeded, retry in ${after}`),
  eventNotFound: () => notFound('Event'),
  orderNotFound: () => notFound('Order'),
  venueNotFound: () => notFound('Venue (placeId)'),
  ticketTypeNotFound: (id: string) => new EnvelopeError(404, 'NOT_FOUND', `Ticket type ${id} not found for this event`),
  eventNotDraft: (status: string) => new EnvelopeError(409, 'EVENT_NOT_DRAFT', `Only DRAFT events can be changed; this event is ${status}`),
  invalidStatusTransition: (from: string, to: string) =>
    new EnvelopeError(409, 'INVALID_STATUS_TRANSITION', `An event cannot move from ${from} to ${to}`),
  eventNotOnSale: (status: string) => new EnvelopeError(409, 'EVENT_NOT_ON_SALE', `The event is ${status}; it sells no tickets`),
  ticketTypeInactive: (id: string) => new EnvelopeError(409, 'TICKET_TYPE_INACTIVE', `Ticket type ${id} is not on sale`),
  salesEnded: (id: string) => new EnvelopeError(409, 'SALES_ENDED', `Sales of ticket type ${id} have ended`),
  soldOut: (id: string) => new EnvelopeError(409, 'SOLD_OUT', `Ticket type ${id} has not enough tickets left`),
  orderNotPending: (status: string) =>
    new EnvelopeError(409, 'ORDER_NOT_PENDING', `Only PENDING orders can be paid; this order is ${status}`),
  orderNotConfirmed: (status: string) =>
    new EnvelopeError(409, 'ORDER_NOT_CONFIRMED', `Only CONFIRMED orders can be refunded; this order is ${status}`),
  endsBeforeStart: () => validationError([{ path: 'body.eventEndsAt', message: 'must be after eventStartsAt' }]),
};
