/**
 * The words every API and the operator API share about tenants and their keys, defined once:
 * the database columns, the operator API's schemas and each API's checks import them from here.
 */

/** A profile's plan. The ticketing partner API admits only ENTERPRISE profiles (README, OpenAPI). */
export const PLANS = ['ENTERPRISE', 'PRO', 'FREE'] as const;
export type Plan = (typeof PLANS)[number];

/** The API a key opens; its prefix tells them apart (`tk_live_`, `idv_live_`, `gov_live_`). */
export const KEY_SERVICES = ['ticketing', 'identity', 'governance'] as const;
export type KeyService = (typeof KEY_SERVICES)[number];

/** What a ticketing key may do; each /api/v1 operation names the scope it needs. */
export const TICKETING_SCOPES = ['events:read', 'events:write', 'orders:read', 'tickets:read', 'attendees:read'] as const;
export type TicketingScope = (typeof TICKETING_SCOPES)[number];

/** What a governance key may do: decide (and admit) or only read. */
export const GOVERNANCE_SCOPES = ['governance:decide', 'governance:read'] as const;
export type GovernanceScope = (typeof GOVERNANCE_SCOPES)[number];

/** An identity key is either a partner backend's or a reviewer's. */
export const IDENTITY_ROLES = ['backend', 'reviewer'] as const;
export type IdentityRole = (typeof IDENTITY_ROLES)[number];

/** Who must agree on a manual review decision: one reviewer, or two different reviewer keys (README, "Four-eyes review"). */
export const REVIEW_POLICIES = ['single', 'four_eyes'] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];
