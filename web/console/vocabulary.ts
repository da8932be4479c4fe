import type { paths } from '../shared/api.js';

/**
 * The operator API's closed lists (plans, key scopes, statuses) as the console offers them. The
 * types come from the generated API types (web/shared/api-schema.d.ts, made from the server's
 * OpenAPI document by `npm run build:web`); the runtime lists are records over those types, so a
 * value the server adds or drops fails `npm run typecheck` here instead of drifting unseen.
 */

/** Every value of `T`, in the record's order; the compiler refuses a record missing one or naming another. */
const every = <T extends string>(all: Record<T, true>): T[] => Object.keys(all) as T[];

type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type Plan = JsonBody<paths['/admin/v1/profiles']['post']>['plan'];
export const PLANS = every<Plan>({ FREE: true, PRO: true, ENTERPRISE: true });

export type ReviewPolicy = NonNullable<JsonBody<paths['/admin/v1/profiles/{id}']['patch']>['reviewPolicy']>;

type KeyGrant = JsonBody<paths['/admin/v1/api-keys']['post']>;
export type KeyService = KeyGrant['service'];
export const KEY_SERVICES = every<KeyService>({ identity: true, ticketing: true, governance: true });
export type IdentityRole = Extract<KeyGrant, { service: 'identity' }>['role'];
export const IDENTITY_ROLES = every<IdentityRole>({ backend: true, reviewer: true });
export type TicketingScope = Extract<KeyGrant, { service: 'ticketing' }>['scopes'][number];
export const TICKETING_SCOPES = every<TicketingScope>({
  'events:read': true,
  'events:write': true,
  'orders:read': true,
  'tickets:read': true,
  'attendees:read': true,
});
export type GovernanceScope = Extract<KeyGrant, { service: 'governance' }>['scopes'][number];
export const GOVERNANCE_SCOPES = every<GovernanceScope>({ 'governance:decide': true, 'governance:read': true });

export type EventStatus = NonNullable<Query<paths['/admin/v1/profiles/{id}/events']['get']>['status']>;
export const EVENT_STATUSES = every<EventStatus>({ DRAFT: true, ACTIVE: true, INACTIVE: true, CANCELLED: true, ARCHIVED: true });

export type VerificationStatus = NonNullable<Query<paths['/admin/v1/profiles/{id}/verifications']['get']>['status']>;
export const VERIFICATION_STATUSES = every<VerificationStatus>({
  awaiting_capture: true,
  processing: true,
  manual_review: true,
  approved: true,
  declined: true,
});
