import type { DbOrTx } from '../db/client.js';
import { ticketingErrors as errors } from './errors.js';
import type { TicketingDeps } from './deps.js';
import { windowOf, type PageRequest } from './events.js';
import { parseCents } from './money.js';
import * as repo from './repo.js';
import type { OrderCreate, TicketTypeCreate } from './schemas.js';
import {
  CURRENCY,
  orderView,
  ticketTypeView,
  ticketView,
  type EventRow,
  type OrderItemRow,
  type OrderRow,
  type TicketRow,
  type TicketTypeRow,
} from './views.js';

/**
 * Ticket types, orders and issued tickets.
 *
 * Stock is counted at confirmation: `sold` rises when an order becomes CONFIRMED (created so,
 * or paid) and falls when it is refunded. A PENDING order holds no stock; it is refused with
 * SOLD_OUT when it could not be paid right now, and checked again, atomically, when paid.
 * Every stock change is one conditional UPDATE (`sold + n <= quantity`), so concurrent orders
 * can never oversell, on PostgreSQL as on PGlite.
 */
export function createSalesService({ db, clock, webhooks }: TicketingDeps) {
  /** Units per ticket type, in id order so concurrent transactions lock rows in the same order. */
  function unitsByType(items: Pick<OrderItemRow, 'ticketTypeId' | 'quantity'>[]): [string, number][] {
    const units = new Map<string, number>();
    for (const item of items) {
      if (item.ticketTypeId) units.set(item.ticketTypeId, (units.get(item.ticketTypeId) ?? 0) + item.quantity);
    }
    return [...units.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  }

  async function takeStock(tx: DbOrTx, items: Pick<OrderItemRow, 'ticketTypeId' | 'quantity'>[]) {
    for (const [ticketTypeId, units] of unitsByType(items)) {
      if (!(await repo.takeStock(tx, ticketTypeId, units))) throw errors.soldOut(ticketTypeId);
    }
  }

  /**
   * One ticket per admission unit: a STANDARD item of quantity n issues n tickets of quantity 1;
   * a TABLE item issues one ticket per table, its quantity the table's partySize (1 when unset),
   * so the whole party enters on one scan.
   */
  async function issueTickets(tx: DbOrTx, order: OrderRow, items: OrderItemRow[], now: Date) {
    const types = new Map(
      (
        await repo.findTicketTypes(
          tx,
          order.eventId,
          unitsByType(items).map(([id]) => id),
        )
      ).map((t) => [t.id, t]),
    );
    const tickets = items.flatMap((item) => {
      const type = item.ticketTypeId ? types.get(item.ticketTypeId) : undefined;
      const admits = type?.kind === 'TABLE' ? (type.partySize ?? 1) : 1;
      return Array.from({ length: item.quantity }, () => ({
        orderId: order.id,
        eventId: order.eventId,
        ticketTypeId: item.ticketTypeId,
        quantity: admits,
        holderName: order.buyerName,
        holderEmail: order.buyerEmail,
        createdAt: now,
      }));
    });
    await repo.insertTickets(tx, tickets);
  }

  async function loadOrderForChange(tx: DbOrTx, orderId: string) {
    const order = await repo.findOrder(tx, orderId, undefined, { forUpdate: true });
    if (!order) throw errors.orderNotFound();
    const items = (await repo.itemsOf(tx, [order.id])).get(order.id)!;
    return { order, items };
  }

  function checkSellable(event: EventRow) {
    if (event.status === 'CANCELLED' || event.status === 'ARCHIVED') throw errors.eventNotOnSale(event.status);
  }

  return {
    async listTicketTypes(eventId: string) {
      return (await repo.listTicketTypes(db, eventId)).map(ticketTypeView);
    },

    async createTicketType(event: EventRow, body: TicketTypeCreate) {
      checkSellable(event);
      const row = await repo.insertTicketType(db, {
        eventId: event.id,
        name: body.name,
        description: body.description ?? null,
        kind: body.kind,
        partySize: body.partySize ?? null,
        priceCents: parseCents(body.price),
        quantity: body.quantity,
        sold: 0,
        salesEndAt: body.salesEndAt ? new Date(body.salesEndAt) : null,
        isActive: body.isActive ?? true,
        createdAt: clock.now(),
      });
      return ticketTypeView(row);
    },

    async listOrders(eventId: string, status: string | undefined, page: PageRequest, withBuyer: boolean) {
      const { rows, total } = await repo.listOrders(db, eventId, status, windowOf(page));
      const items = await repo.itemsOf(
        db,
        rows.map((r) => r.id),
      );
      return { items: rows.map((r) => orderView(r, items.get(r.id)!, withBuyer)), ...page, total };
    },

    async getOrder(profileId: string, orderId: string, withBuyer: boolean) {
      const order = await repo.findOrder(db, orderId, profileId);
      if (!order) throw errors.orderNotFound();
      return orderView(order, (await repo.itemsOf(db, [order.id])).get(order.id)!, withBuyer);
    },

    async listTickets(eventId: string, page: PageRequest, withHolder: boolean) {
      const { rows, total } = await repo.listTickets(db, eventId, windowOf(page));
      return { items: rows.map((r: TicketRow) => ticketView(r, withHolder)), ...page, total };
    },

    /** Overselling answers 409 SOLD_OUT and writes nothing: the whole order is one transaction. */
    async createOrder(event: EventRow, body: OrderCreate) {
      checkSellable(event);
      const now = clock.now();
      const ids = [...new Set(body.items.map((i) => i.ticketTypeId.toLowerCase()))];
      return db.transaction(async (tx) => {
        const types = new Map<string, TicketTypeRow>((await repo.findTicketTypes(tx, event.id, ids)).map((t) => [t.id, t]));
        for (const id of ids) {
          const type = types.get(id);
          if (!type) throw errors.ticketTypeNotFound(id);
          if (!type.isActive) throw errors.ticketTypeInactive(id);
          if (type.salesEndAt && type.salesEndAt.getTime() <= now.getTime()) throw errors.salesEnded(id);
        }
        const lines = body.items.map((i, position) => {
          const type = types.get(i.ticketTypeId.toLowerCase())!;
          return { position, ticketTypeId: type.id, quantity: i.quantity, unitPriceCents: type.priceCents };
        });
        const status = body.status ?? 'PENDING';
        if (status === 'CONFIRMED') {
          await takeStock(tx, lines);
        } else {
          for (const [id, units] of unitsByType(lines)) {
            const type = types.get(id)!;
            if (type.sold + units > type.quantity) throw errors.soldOut(id);
          }
        }
        const { order, items } = await repo.insertOrder(
          tx,
          {
            profileId: event.profileId,
            eventId: event.id,
            status,
            totalCents: lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0),
            currency: CURRENCY,
            buyerName: body.buyer.name,
            buyerEmail: body.buyer.email,
            createdAt: now,
            updatedAt: now,
          },
          lines,
        );
        const data = orderView(order, items, true);
        if (status === 'CONFIRMED') {
          await issueTickets(tx, order, items, now);
          await webhooks.publish(tx, { profileId: order.profileId, type: 'order.paid', data });
        }
        return data;
      });
    },

    async payOrder(orderId: string) {
      return db.transaction(async (tx) => {
        const { order, items } = await loadOrderForChange(tx, orderId);
        if (order.status !== 'PENDING') throw errors.orderNotPending(order.status);
        const event = (await repo.findEvent(tx, order.eventId))!;
        checkSellable(event);
        await takeStock(tx, items);
        const now = clock.now();
        const paid = await repo.setOrderStatus(tx, order.id, 'CONFIRMED', now);
        await issueTickets(tx, paid, items, now);
        const data = orderView(paid, items, true);
        await webhooks.publish(tx, { profileId: paid.profileId, type: 'order.paid', data });
        return data;
      });
    },

    async refundOrder(orderId: string) {
      return db.transaction(async (tx) => {
        const { order, items } = await loadOrderForChange(tx, orderId);
        if (order.status !== 'CONFIRMED') throw errors.orderNotConfirmed(order.status);
        const now = clock.now();
        const refunded = await repo.setOrderStatus(tx, order.id, 'REFUNDED', now);
        await repo.voidTickets(tx, order.id, now);
        for (const [ticketTypeId, units] of unitsByType(items)) await repo.returnStock(tx, ticketTypeId, units);
        const data = orderView(refunded, items, true);
        await webhooks.publish(tx, { profileId: refunded.profileId, type: 'order.refunded', data });
        return data;
      });
    },
  };
}
