import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { ISO_MS, UNKNOWN_ID, UUID, draftEvent, eventBody, organizer } from '../helpers/ticketing.js';

describe('ticketing: events', () => {
  const { ctx, org, other } = useTestApp({}, { org: organizer, other: organizer });

  describe('POST /events', () => {
    it('creates a DRAFT event and answers the stored Event, field for field', async () => {
      const res = await org.call(
        'POST',
        '/events',
        eventBody(org.venueId, { eventEndsAt: '2027-01-01T02:00:00+01:00', city: 'Hamburg', timezone: 'Europe/Berlin' }),
      );
      expect(res.statusCode).toBe(201);
      const now = ctx.clock.now().toISOString();
      expect(res.json()).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(UUID),
          name: 'Harbour Nights',
          description: 'Live music by the water',
          status: 'DRAFT',
          startsAt: '2026-12-31T20:00:00.000Z',
          endsAt: '2027-01-01T01:00:00.000Z',
          timezone: 'Europe/Berlin',
          allDay: false,
          address: '1 Dock Road',
          city: 'Hamburg',
          placeId: org.venueId,
          ticketMode: 'SERVICE',
          imageUrl: null,
          createdAt: now,
          updatedAt: now,
        },
      });
      const read = await org.call('GET', `/events/${res.json().data.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(res.json());
    });

    it('keeps absent optional fields as null and honours ticketMode', async () => {
      const data = await draftEvent(org, {
        ticketMode: 'FREE',
        email: 'box@example.com',
        website: 'https://example.com',
        ticketUrl: 'https://t.example.com/x',
        phoneNumber: '+49 40 1',
        offersVipTables: true,
      });
      expect(data).toMatchObject({ endsAt: null, timezone: null, city: null, imageUrl: null, ticketMode: 'FREE', allDay: false });
      expect(data.createdAt).toMatch(ISO_MS);
    });

    it('marks events spanning whole days in their time zone as allDay', async () => {
      const berlin = await draftEvent(org, {
        eventStartsAt: '2026-12-24T23:00:00.000Z',
        eventEndsAt: '2026-12-26T23:00:00.000Z',
        timezone: 'Europe/Berlin',
      });
      expect(berlin.allDay).toBe(true);
      const utc = await draftEvent(org, { eventStartsAt: '2026-12-25T00:00:00Z', eventEndsAt: '2026-12-26T00:00:00Z' });
      expect(utc.allDay).toBe(true);
      const notMidnight = await draftEvent(org, {
        eventStartsAt: '2026-12-25T00:00:00Z',
        eventEndsAt: '2026-12-26T00:00:00Z',
        timezone: 'America/New_York',
      });
      expect(notMidnight.allDay).toBe(false);
      const noEnd = await draftEvent(org, { eventStartsAt: '2026-12-25T00:00:00Z' });
      expect(noEnd.allDay).toBe(false);
    });

    it.each([
      ['an unknown property', { imageUrl: 'https://x.example/i.png' }, 'body'],
      ['lat outside ±90', { lat: 90.5 }, 'body.lat'],
      ['lng outside ±180', { lng: -181 }, 'body.lng'],
      ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'body.timezone'],
      ['an end before the start', { eventEndsAt: '2026-12-31T19:00:00.000Z' }, 'body.eventEndsAt'],
      ['an end equal to the start', { eventEndsAt: '2026-12-31T20:00:00.000Z' }, 'body.eventEndsAt'],
      ['empty categories', { categories: [] }, 'body.categories'],
      ['a bad email', { email: 'not-an-email' }, 'body.email'],
      ['a bad website', { website: 'no uri' }, 'body.website'],
      ['a bad ticketUrl', { ticketUrl: '//nope' }, 'body.ticketUrl'],
      ['a bad date-time', { eventStartsAt: '31.12.2026 20:00' }, 'body.eventStartsAt'],
      ['an unknown ticketMode', { ticketMode: 'BRAND' }, 'body.ticketMode'],
      ['a string lat', { lat: '53.5' }, 'body.lat'],
      ['a placeId that is not a uuid', { placeId: 'venue-1' }, 'body.placeId'],
    ])('answers 400 VALIDATION_ERROR for %s', async (_name, overrides, path) => {
      const res = await org.call('POST', '/events', eventBody(org.venueId, overrides));
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(error.details[0]).toEqual({ path: expect.any(String), message: expect.any(String) });
    });

    it('answers 400 for each missing required field', async () => {
      for (const field of ['name', 'description', 'address', 'lat', 'lng', 'categories', 'placeId', 'eventStartsAt']) {
        const body: Record<string, unknown> = eventBody(org.venueId);
        delete body[field];
        const res = await org.call('POST', '/events', body);
        expect(res.statusCode, field).toBe(400);
        expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(`body.${field}`);
      }
    });

    it('answers 404 for a placeId that is not one of the caller’s venues, whatever else the body holds', async () => {
      const foreign = await org.call('POST', '/events', eventBody(other.venueId));
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
      expect((await org.call('POST', '/events', eventBody(UNKNOWN_ID))).statusCode).toBe(404);
      expect((await org.call('POST', '/events', eventBody(UNKNOWN_ID, { lat: 1000, extra: true }))).statusCode).toBe(404);
    });
  });

  describe('GET /events/{eventId}', () => {
    it('answers 404 for an unknown id, a non-uuid id and another profile’s event', async () => {
      const mine = await draftEvent(org);
      for (const url of [`/events/${UNKNOWN_ID}`, '/events/not-a-uuid', '/events/123']) {
        const res = await org.call('GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
      expect((await other.call('GET', `/events/${mine.id}`)).statusCode).toBe(404);
    });
  });

  describe('PATCH /events/{eventId}', () => {
    it('changes the seven fields of a draft, moves updatedAt and keeps everything else', async () => {
      const created = await draftEvent(org, { city: 'Hamburg', eventEndsAt: '2026-12-31T23:00:00.000Z' });
      ctx.clock.advance(60_000);
      const res = await org.call('PATCH', `/events/${created.id}`, {
        name: 'Harbour Nights II',
        description: 'New line-up',
        address: '2 Dock Road',
        eventStartsAt: '2027-01-02T23:00:00.000Z',
        eventEndsAt: '2027-01-03T23:00:00.000Z',
        timezone: 'Europe/Berlin',
        ticketMode: 'EXTERNAL',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        ...created,
        name: 'Harbour Nights II',
        description: 'New line-up',
        address: '2 Dock Road',
        startsAt: '2027-01-02T23:00:00.000Z',
        endsAt: '2027-01-03T23:00:00.000Z',
        timezone: 'Europe/Berlin',
        allDay: true,
        ticketMode: 'EXTERNAL',
        updatedAt: ctx.clock.now().toISOString(),
      });
      expect((await org.call('GET', `/events/${created.id}`)).json().data).toEqual(res.json().data);
    });

    it('moves updatedAt on every successful PATCH, even within one clock tick', async () => {
      const created = await draftEvent(org);
      const first = (await org.call('PATCH', `/events/${created.id}`, { name: 'A' })).json().data;
      const second = (await org.call('PATCH', `/events/${created.id}`, {})).json().data;
      expect(Date.parse(first.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
      expect(second.name).toBe('A');
    });

    it('checks eventEndsAt against the stored start and eventStartsAt against the stored end', async () => {
      const created = await draftEvent(org, { eventEndsAt: '2026-12-31T23:00:00.000Z' });
      const endEarly = await org.call('PATCH', `/events/${created.id}`, { eventEndsAt: '2026-12-31T19:00:00.000Z' });
      expect(endEarly.statusCode).toBe(400);
      expect(endEarly.json().error.details).toEqual([{ path: 'body.eventEndsAt', message: expect.any(String) }]);
      const startLate = await org.call('PATCH', `/events/${created.id}`, { eventStartsAt: '2027-01-01T00:00:00.000Z' });
      expect(startLate.statusCode).toBe(400);
      const both = await org.call('PATCH', `/events/${created.id}`, {
        eventStartsAt: '2027-01-01T00:00:00.000Z',
        eventEndsAt: '2027-01-01T03:00:00.000Z',
      });
      expect(both.statusCode).toBe(200);
    });

    it.each([
      ['placeId', { placeId: UNKNOWN_ID }],
      ['a creation-only field', { city: 'Berlin' }],
      ['an unknown field', { color: 'red' }],
      ['a bad time zone', { timezone: 'Nowhere/Land' }],
      ['an empty name', { name: '' }],
      ['a bad ticketMode', { ticketMode: 'NONE' }],
      ['a bad date-time', { eventStartsAt: 'tomorrow' }],
      ['a non-object body', ['name']],
    ])('answers 400 for %s', async (_name, body) => {
      const created = await draftEvent(org);
      const res = await org.call('PATCH', `/events/${created.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect((await org.call('GET', `/events/${created.id}`)).json().data.updatedAt).toBe(created.updatedAt);
    });

    it('answers 409 EVENT_NOT_DRAFT for every non-draft status, whatever the body', async () => {
      const cases: [string, (id: string) => Promise<unknown>][] = [
        ['ACTIVE', (id) => ctx.admin('POST', `/events/${id}/publish`)],
        ['INACTIVE', (id) => ctx.admin('POST', `/events/${id}/status`, { status: 'INACTIVE' })],
        ['CANCELLED', (id) => ctx.admin('POST', `/events/${id}/cancel`)],
        ['ARCHIVED', (id) => ctx.admin('POST', `/events/${id}/status`, { status: 'ARCHIVED' })],
      ];
      for (const [status, move] of cases) {
        const created = await draftEvent(org);
        await move(created.id);
        for (const body of [{ name: 'x' }, { bogus: 1 }, { eventEndsAt: 'garbage' }]) {
          const res = await org.call('PATCH', `/events/${created.id}`, body);
          expect(res.statusCode, status).toBe(409);
          expect(res.json()).toEqual({ success: false, error: { code: 'EVENT_NOT_DRAFT', message: expect.any(String) } });
        }
        expect((await org.call('GET', `/events/${created.id}`)).json().data.status).toBe(status);
      }
    });

    it('answers 404 for unknown, non-uuid and foreign events, whatever the body', async () => {
      const mine = await draftEvent(org);
      expect((await org.call('PATCH', `/events/${UNKNOWN_ID}`, { bogus: true })).statusCode).toBe(404);
      expect((await org.call('PATCH', '/events/abc', { name: 'x' })).statusCode).toBe(404);
      expect((await other.call('PATCH', `/events/${mine.id}`, { name: 'stolen' })).statusCode).toBe(404);
      expect((await org.call('GET', `/events/${mine.id}`)).json().data.name).toBe(mine.name);
    });

    it('applies parallel PATCHes one after another: each succeeds and the last one stays whole', async () => {
      const created = await draftEvent(org);
      const names = Array.from({ length: 8 }, (_, i) => `Name ${i}`);
      const answers = await Promise.all(names.map((name) => org.call('PATCH', `/events/${created.id}`, { name, description: name })));
      expect(answers.map((a) => a.statusCode)).toEqual(names.map(() => 200));
      const stamps = new Set(answers.map((a) => a.json().data.updatedAt));
      expect(stamps.size).toBe(names.length);
      const final = (await org.call('GET', `/events/${created.id}`)).json().data;
      expect(final.name).toBe(final.description);
      expect(names).toContain(final.name);
    });

    it('keeps end after start under parallel PATCHes of start and end', async () => {
      const created = await draftEvent(org, { eventStartsAt: '2026-12-31T20:00:00.000Z', eventEndsAt: '2026-12-31T23:00:00.000Z' });
      const [a, b] = await Promise.all([
        org.call('PATCH', `/events/${created.id}`, { eventStartsAt: '2026-12-31T22:00:00.000Z' }),
        org.call('PATCH', `/events/${created.id}`, { eventEndsAt: '2026-12-31T21:00:00.000Z' }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
      const final = (await org.call('GET', `/events/${created.id}`)).json().data;
      expect(Date.parse(final.endsAt)).toBeGreaterThan(Date.parse(final.startsAt));
    });
  });
});
