import { randomUUID } from 'node:crypto';
import { createGroupCommit } from '../lib/group-commit.js';
import { spansWholeDays } from './all-day.js';
import { createEventPageCache, pageKey } from './page-cache.js';
import type { TicketingDeps } from './deps.js';
import { ticketingErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { EventCreate, EventUpdate } from './schemas.js';
import { eventView, type EventRow, type VenueRow } from './views.js';

export interface PageRequest {
  page: number;
  limit: number;
}

export const windowOf = ({ page, limit }: PageRequest) => ({ limit, offset: (page - 1) * limit });

type EventStatus = EventRow['status'];

/**
 * Where the operator may move an event. Publishing (DRAFT → ACTIVE) is its own step with its
 * own webhook; the status endpoint also accepts it so a draft can go straight to any state.
 * ARCHIVED is final; a CANCELLED event can only be archived.
 */
const ALLOWED_FROM: Record<Exclude<EventStatus, 'DRAFT'>, EventStatus[]> = {
  ACTIVE: ['DRAFT', 'INACTIVE'],
  INACTIVE: ['DRAFT', 'ACTIVE'],
  CANCELLED: ['DRAFT', 'ACTIVE', 'INACTIVE'],
  ARCHIVED: ['DRAFT', 'ACTIVE', 'INACTIVE', 'CANCELLED'],
};

/** At most this many event creations share one insert; more wait for the next. */
const MAX_CREATE_BATCH = 64;

type NewEventWithId = repo.NewEvent & { id: string };

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** Events: the partner's drafts and reads, and the operator's status changes. */
export function createEventService({ db, clock, webhooks, pages = createEventPageCache(0) }: TicketingDeps) {
  /**
   * Event creations are group-committed: those that arrive while an insert is running are
   * written together by the next one (repo.createEventsJson), one round trip and one commit for
   * all of them, whatever their profiles (each row is checked against its own profile's venue).
   * When the database refuses such a statement, each of its events is tried alone, with the id
   * it was given, so an event it refuses fails only its own request (and one that was written
   * after all, its answer lost, is refused by its id rather than created twice).
   */
  const creations = createGroupCommit<NewEventWithId, string | undefined | Error>(async (_all, batch) => {
    try {
      const created = await repo.createEventsJson(db, batch);
      return batch.map((e) => created.get(e.id));
    } catch (err) {
      if (batch.length === 1) return [asError(err)];
      return Promise.all(batch.map((e) => repo.createEventsJson(db, [e]).then((created) => created.get(e.id), asError)));
    }
  }, MAX_CREATE_BATCH);

  /** The event, or 404; with `profileId`, another profile's event is answered as absent. */
  async function requireEvent(id: string, profileId?: string): Promise<EventRow> {
    const row = await repo.findEvent(db, id, profileId);
    if (!row) throw errors.eventNotFound();
    return row;
  }

  async function transition(id: string, to: Exclude<EventStatus, 'DRAFT'>, onlyFrom?: EventStatus[]) {
    return db.transaction(async (tx) => {
      const current = await repo.findEvent(tx, id, undefined, { forUpdate: true });
      if (!current) throw errors.eventNotFound();
      if (onlyFrom && !onlyFrom.includes(current.status)) throw errors.eventNotDraft(current.status);
      if (!ALLOWED_FROM[to].includes(current.status)) throw errors.invalidStatusTransition(current.status, to);
      const row = (await repo.updateEvent(tx, id, { status: to }, clock.now()))!;
      const data = eventView(row);
      const type = to === 'CANCELLED' ? 'event.canceled' : current.status === 'DRAFT' && to === 'ACTIVE' ? 'event.published' : null;
      if (type) await webhooks.publish(tx, { profileId: row.profileId, type, data });
      return data;
    });
  }

  return {
    requireEvent,

    /** The event as the finished JSON body of GET /events/{id} (written by PostgreSQL), or 404. */
    async requireEventJson(id: string, profileId: string): Promise<string> {
      const body = await repo.eventBodyJson(db, profileId, id);
      if (body === undefined) throw errors.eventNotFound();
      return body;
    },

    async requireDraftEvent(id: string, profileId: string): Promise<EventRow> {
      const row = await requireEvent(id, profileId);
      if (row.status !== 'DRAFT') throw errors.eventNotDraft(row.status);
      return row;
    },

    /** One of the profile's own venues; another profile's venue, or none, is 404. */
    async requireOwnVenue(profileId: string, placeId: string): Promise<VenueRow> {
      const venue = await repo.findVenue(db, profileId, placeId);
      if (!venue) throw errors.venueNotFound();
      return venue;
    },

    /**
     * The page as the finished JSON body of GET /events (written by PostgreSQL,
     * repo.eventPageJson), from this process's page cache while the listed events have not
     * changed (src/ticketing/page-cache.ts).
     */
    async pageJson(profileId: string, status: EventStatus | undefined, page: PageRequest): Promise<string> {
      return pages.page(pageKey(profileId, status, page.page, page.limit), {
        changes: async () => (await repo.eventListState(db, profileId, status)).changes,
        read: () => repo.eventPageJson(db, profileId, status, { ...windowOf(page), page: page.page }),
      });
    },

    /**
     * Creates a DRAFT event at one of the profile's venues (404 for any other placeId), as the
     * finished JSON body of the 201: the event's stored resource JSON, as reads send it.
     */
    async createJson(profileId: string, body: EventCreate): Promise<string> {
      const startsAt = new Date(body.eventStartsAt);
      const endsAt = body.eventEndsAt ? new Date(body.eventEndsAt) : null;
      const timezone = body.timezone ?? null;
      const created = await creations.add('', {
        id: randomUUID(),
        profileId,
        placeId: body.placeId,
        name: body.name,
        description: body.description,
        startsAt,
        endsAt,
        timezone,
        allDay: spansWholeDays(startsAt, endsAt, timezone),
        address: body.address,
        city: body.city ?? null,
        lat: body.lat,
        lng: body.lng,
        categories: body.categories,
        email: body.email ?? null,
        website: body.website ?? null,
        phoneNumber: body.phoneNumber ?? null,
        ticketMode: body.ticketMode ?? 'SERVICE',
        ticketUrl: body.ticketUrl ?? null,
        offersVipTables: body.offersVipTables ?? false,
        at: clock.now(),
      });
      if (created instanceof Error) throw created;
      if (created === undefined) throw errors.venueNotFound();
      return created;
    },

    /** Changes a draft under a row lock, so the end-after-start rule holds against concurrent changes too. */
    async update(profileId: string, id: string, body: EventUpdate) {
      return db.transaction(async (tx) => {
        const current = await repo.findEvent(tx, id, profileId, { forUpdate: true });
        if (!current) throw errors.eventNotFound();
        if (current.status !== 'DRAFT') throw errors.eventNotDraft(current.status);
        const startsAt = body.eventStartsAt ? new Date(body.eventStartsAt) : current.startsAt;
        const endsAt = body.eventEndsAt ? new Date(body.eventEndsAt) : current.endsAt;
        const timezone = body.timezone ?? current.timezone;
        if (endsAt && endsAt.getTime() <= startsAt.getTime()) throw errors.endsBeforeStart();
        const row = await repo.updateEvent(
          tx,
          id,
          {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.address !== undefined ? { address: body.address } : {}),
            ...(body.ticketMode !== undefined ? { ticketMode: body.ticketMode } : {}),
            startsAt,
            endsAt,
            timezone,
            allDay: spansWholeDays(startsAt, endsAt, timezone),
          },
          clock.now(),
        );
        return eventView(row!);
      });
    },

    publish: (id: string) => transition(id, 'ACTIVE', ['DRAFT']),
    cancel: (id: string) => transition(id, 'CANCELLED'),
    changeStatus: (id: string, to: 'ACTIVE' | 'INACTIVE' | 'ARCHIVED') => transition(id, to),
  };
}
