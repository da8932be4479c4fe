/**
 * The words every API and the operator API share about tenants, their keys and their records, defined once:
 * the database columns, the operator API's schemas and each API's checks import them from here.
 */

/** A profile's plan. The ticketing partner API admits only ENTERPRISE profiles (docs/testing.md, OpenAPI). */
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

/** Who must agree on a manual review decision: one reviewer, or two different reviewer keys (docs/identity.md, "Four-eyes review"). */
export const REVIEW_POLICIES = ['single', 'four_eyes'] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];

/*
 * The states an API's records move through, which the database columns hold, the APIs' schemas
 * answer with and the operator API (its lists, the CLI's --help) filters and offers.
 */

/** A ticketing event's status. */
export const EVENT_STATUSES = ['DRAFT', 'ACTIVE', 'INACTIVE', 'CANCELLED', 'ARCHIVED'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** A ticket type is sold per person or per table (a TABLE has a party size). */
export const TICKET_TYPE_KINDS = ['STANDARD', 'TABLE'] as const;

/** An order's status; IssuedTickets exist for CONFIRMED orders only. */
export const ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'REFUNDED', 'CANCELLED'] as const;

/** An identity verification's status. */
export const VERIFICATION_STATUSES = ['awaiting_capture', 'processing', 'manual_review', 'approved', 'declined'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Where a selfie frame came from: the capture page's live camera, or a file chosen when no camera could be used. */
export const FRAME_SOURCES = ['camera', 'file'] as const;
export type FrameSource = (typeof FRAME_SOURCES)[number];

/** A webhook delivery's state in the delivery log. */
export const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;
