import { TICKETING_SCOPES } from '../../src/db/vocabulary.js';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { webhookEvents } from '../../src/db/schema/webhooks.js';
import type { TestContext } from './app.js';
import { addKey, createTenant } from './tenants.js';

export const ALL_SCOPES = [...TICKETING_SCOPES];
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Organizer {
  profileId: string;
  key: string;
  keyId: string;
  venueId: string;
  /** Calls the partner API with this organizer's key (or `key`). */
  call(method: InjectOptions['method'], url: string, body?: unknown, key?: string): Promise<LightMyRequestResponse>;
  /** A further key of this profile with other scopes. */
  keyWith(scopes: string[]): Promise<string>;
}

export function partnerCall(ctx: TestContext, key: string | null, method: InjectOptions['method'], url: string, body?: unknown) {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
}

/** A profile on `plan` with one venue and a ticketing key holding `scopes` (all of them by default). */
export async function organizer(
  ctx: TestContext,
  opts: { scopes?: string[]; plan?: 'ENTERPRISE' | 'PRO' | 'FREE' } = {},
): Promise<Organizer> {
  const tenant = await createTenant(ctx, { service: 'ticketing', scopes: opts.scopes ?? ALL_SCOPES, plan: opts.plan ?? 'ENTERPRISE' });
  const venue = await ctx.admin('POST', `/profiles/${tenant.profileId}/venues`, {
    name: 'Warehouse',
    address: '1 Dock Road',
    city: 'Hamburg',
    lat: 53.55,
    lng: 9.99,
    timezone: 'Europe/Berlin',
  });
  return {
    ...tenant,
    venueId: venue.data.id,
    call: (method, url, body, key) => partnerCall(ctx, key ?? tenant.key, method, url, body),
    keyWith: async (scopes) => (await addKey(ctx, tenant.profileId, { service: 'ticketing', scopes })).key,
  };
}

export function eventBody(venueId: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Harbour Nights',
    description: 'Live music by the water',
    address: '1 Dock Road',
    lat: 53.55,
    lng: 9.99,
    categories: ['music'],
    placeId: venueId,
    eventStartsAt: '2026-12-31T20:00:00.000Z',
    ...overrides,
  };
}

/** A DRAFT event through POST /events; fails the test unless it answers 201. */
export async function draftEvent(org: Organizer, overrides: Record<string, unknown> = {}) {
  const res = await org.call('POST', '/events', eventBody(org.venueId, overrides));
  if (res.statusCode !== 201) throw new Error(`POST /events answered ${res.statusCode}: ${res.body}`);
  return res.json().data as { id: string; status: string; updatedAt: string; [k: string]: unknown };
}

export async function ticketType(ctx: TestContext, eventId: string, body: Record<string, unknown> = {}) {
  const res = await ctx.admin('POST', `/events/${eventId}/ticket-types`, {
    name: 'General',
    kind: 'STANDARD',
    price: '25.00',
    quantity: 100,
    ...body,
  });
  return res.data as { id: string; sold: number; quantity: number; price: string };
}

export async function order(
  ctx: TestContext,
  eventId: string,
  items: { ticketTypeId: string; quantity: number }[],
  status: 'PENDING' | 'CONFIRMED' = 'CONFIRMED',
  buyer = { name: 'Ada Lovelace', email: 'ada@example.com' },
) {
  const res = await ctx.admin('POST', `/events/${eventId}/orders`, { items, buyer, status });
  return res.data as { id: string; status: string; totalAmount: string; [k: string]: unknown };
}

export async function webhookRows(ctx: TestContext, profileId: string) {
  const rows = await ctx.app.db.select().from(webhookEvents).where(eq(webhookEvents.profileId, profileId)).orderBy(webhookEvents.createdAt);
  return rows.map((r) => ({ type: r.type, body: r.body as { id: string; type: string; created: string; data: any } }));
}

/** The webhook rows written from now on (by id, since rows of one instant have no order). */
export async function webhookWatch(ctx: TestContext, profileId: string) {
  const seen = new Set((await webhookRows(ctx, profileId)).map((r) => r.body.id));
  return async () => (await webhookRows(ctx, profileId)).filter((r) => !seen.has(r.body.id));
}
