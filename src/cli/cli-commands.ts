/**
 * The operator CLI's command table: one entry per /admin/v1 operation, named after its
 * operationId. Kept as plain data so `--help` and `--url` never load the app or open a
 * database; test/admin/cli-commands.test.ts holds it equal to the OpenAPI document (every
 * operation, method, path and parameter), so it cannot drift from the routes.
 *
 * Flags: `name!` is required, `name[]` is a list (`--scopes a,b`, a JSON array, or the flag
 * repeated), `a.b` is a nested field. Path parameters come first. `choices` gives a flag's
 * allowed values, taken from the vocabulary the server validates with (src/db/vocabulary.ts,
 * the request schemas), so `<command> --help` lists them; the test holds them equal to the
 * OpenAPI document's enums.
 */
import {
  DELIVERY_STATES,
  EVENT_STATUSES,
  GOVERNANCE_SCOPES,
  IDENTITY_ROLES,
  KEY_SERVICES,
  PLANS,
  REVIEW_POLICIES,
  TICKET_TYPE_KINDS,
  TICKETING_SCOPES,
  VERIFICATION_STATUSES,
} from '../db/vocabulary.js';
import { eventStatusChange, orderCreate } from '../ticketing/schemas.js';
import { TICKETING_EVENT_TYPES } from '../webhooks/types.js';
import type { Choices } from './cli-args.js';

interface CommandSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Under /admin/v1, with `{param}` placeholders. */
  path: string;
  description: string;
  flags: string[];
  /** Allowed values by flag name (without `!` or `[]`). */
  choices?: Record<string, Choices>;
}

export const OPERATOR_COMMANDS: CommandSpec[] = [
  {
    operationId: 'createProfile',
    method: 'POST',
    path: '/profiles',
    description: 'Create a profile (a tenant) on a plan: ENTERPRISE, PRO or FREE',
    flags: ['name!', 'plan!'],
    choices: { plan: PLANS },
  },
  { operationId: 'getProfile', method: 'GET', path: '/profiles/{id}', description: 'Show one profile', flags: ['id!'] },
  {
    operationId: 'updateProfile',
    method: 'PATCH',
    path: '/profiles/{id}',
    description:
      "Change a profile's name, plan, review policy (single or four_eyes), identity retention (--identityRetentionDays 1 to 3650, or null to keep decided verifications) or the privacy policy the capture page links (--privacyPolicyUrl https://…, or null)",
    flags: ['id!', 'name', 'plan', 'reviewPolicy', 'identityRetentionDays', 'privacyPolicyUrl'],
    choices: { plan: PLANS, reviewPolicy: REVIEW_POLICIES },
  },
  {
    operationId: 'createVenue',
    method: 'POST',
    path: '/profiles/{id}/venues',
    description: 'Add a venue to a profile',
    flags: ['id!', 'name!', 'address!', 'city', 'lat!', 'lng!', 'timezone'],
  },
  { operationId: 'listVenues', method: 'GET', path: '/profiles/{id}/venues', description: "List a profile's venues", flags: ['id!'] },
  {
    operationId: 'updateVenue',
    method: 'PATCH',
    path: '/profiles/{id}/venues/{venueId}',
    description: "Change a venue's name, address, city, lat, lng or timezone (only the flags given)",
    flags: ['id!', 'venueId!', 'name', 'address', 'city', 'lat', 'lng', 'timezone'],
  },
  {
    operationId: 'createApiKey',
    method: 'POST',
    path: '/api-keys',
    description:
      'Issue an API key (shown once): ticketing or governance with --scopes, identity with --role backend|reviewer; --name labels it; --holder names the person holding a reviewer key (four-eyes review counts holders)',
    flags: ['service!', 'profileId!', 'scopes[]', 'role', 'name', 'holder'],
    choices: {
      service: KEY_SERVICES,
      scopes: { ticketing: TICKETING_SCOPES, governance: GOVERNANCE_SCOPES },
      role: IDENTITY_ROLES,
    },
  },
  {
    operationId: 'listApiKeys',
    method: 'GET',
    path: '/api-keys',
    description: 'List API keys (never the keys themselves), optionally of one profile',
    flags: ['profileId'],
  },
  {
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: '/api-keys/{id}',
    description: 'Revoke an API key on every instance at once',
    flags: ['id!'],
  },
  {
    operationId: 'createGovernanceAgent',
    method: 'POST',
    path: '/governance/agents',
    description: 'Register a governance agent with its mandate (action patterns) and behavioural baseline',
    flags: ['profileId!', 'agentId!', 'mandate[]!', 'baseline.fingerprint!', 'baseline.maxDrift!'],
  },
  {
    operationId: 'createGovernanceDelegation',
    method: 'POST',
    path: '/governance/delegations',
    description: 'Delegate authority to a governance agent until expiresAt',
    flags: ['profileId!', 'agentId!', 'grantedBy!', 'expiresAt!'],
  },
  {
    operationId: 'revokeGovernanceDelegation',
    method: 'POST',
    path: '/governance/delegations/{id}/revoke',
    description: 'Revoke a delegation',
    flags: ['id!'],
  },
  {
    operationId: 'listTransparencyLogKeys',
    method: 'GET',
    path: '/governance/log-keys',
    description: "Print every profile's transparency-log keys (origin, note verifier key, ML-DSA-65 public key) for auditors to pin",
    flags: [],
  },
  {
    operationId: 'getProfileTransparencyLog',
    method: 'GET',
    path: '/profiles/{id}/governance/log',
    description: "A profile's transparency log: its size, root, signed checkpoint and the witnesses' cosignatures",
    flags: ['id!'],
  },
  {
    operationId: 'getProfileTransparencyLogRecord',
    method: 'GET',
    path: '/profiles/{id}/governance/log/records/{seq}',
    description: "One record of a profile's log exactly as hashed, with its inclusion proof in the tree of --tree_size records",
    flags: ['id!', 'seq!', 'tree_size!'],
  },
  {
    operationId: 'startVerification',
    method: 'POST',
    path: '/profiles/{id}/verifications',
    description: 'Start an identity verification for a profile; prints its capture link (the handoff token is shown once)',
    flags: ['id!', 'reference', 'webhook_url', 'return_url'],
  },
  {
    operationId: 'getActivity',
    method: 'GET',
    path: '/activity',
    description:
      'The last hour (or --range 6h, 24h) per bucket: webhook attempts delivered and failed, identity decisions by status, jobs per lane, the failing addresses; --profileId for one profile',
    flags: ['range', 'profileId'],
    choices: { range: ['1h', '6h', '24h'] },
  },
  {
    operationId: 'failNextPipelineRun',
    method: 'POST',
    path: '/identity/verifications/{id}/fail-next-run',
    description: "Make a verification's next pipeline run fail (fault injection)",
    flags: ['id!'],
  },
  {
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/profiles/{id}/webhook-endpoints',
    description: 'Register a webhook endpoint for a profile (its secret is shown once)',
    flags: ['id!', 'url!', 'events[]'],
    choices: { events: TICKETING_EVENT_TYPES },
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/profiles/{id}/webhook-endpoints',
    description: "List a profile's webhook endpoints",
    flags: ['id!'],
  },
  {
    operationId: 'disableWebhookEndpoint',
    method: 'POST',
    path: '/webhook-endpoints/{id}/disable',
    description: 'Stop deliveries to a webhook endpoint',
    flags: ['id!'],
  },
  {
    operationId: 'enableWebhookEndpoint',
    method: 'POST',
    path: '/webhook-endpoints/{id}/enable',
    description: 'Resume deliveries to a webhook endpoint',
    flags: ['id!'],
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhook-endpoints/{id}/rotate-secret',
    description: "Rotate a webhook endpoint's signing secret (the old one signs for 24 h more)",
    flags: ['id!'],
  },
  {
    operationId: 'sendTestWebhook',
    method: 'POST',
    path: '/webhook-endpoints/{id}/test',
    description: 'Send a signed webhook.test event to one endpoint',
    flags: ['id!'],
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhook-deliveries',
    description: 'List webhook deliveries and their attempts, newest first',
    flags: ['profileId', 'endpointId', 'eventId', 'status', 'page', 'limit'],
    choices: { status: DELIVERY_STATES },
  },
  {
    operationId: 'getWebhookDelivery',
    method: 'GET',
    path: '/webhook-deliveries/{id}',
    description: 'Show one webhook delivery with its attempts',
    flags: ['id!'],
  },
  {
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/webhook-deliveries/{id}/redeliver',
    description: "Send a delivery's event again now",
    flags: ['id!'],
  },
  {
    operationId: 'createTicketType',
    method: 'POST',
    path: '/events/{eventId}/ticket-types',
    description: 'Add a ticket type to an event',
    flags: ['eventId!', 'name!', 'description', 'kind!', 'partySize', 'price!', 'quantity!', 'salesEndAt', 'isActive'],
    choices: { kind: TICKET_TYPE_KINDS },
  },
  {
    operationId: 'publishEvent',
    method: 'POST',
    path: '/events/{eventId}/publish',
    description: 'Publish a draft event (DRAFT → ACTIVE)',
    flags: ['eventId!'],
  },
  { operationId: 'cancelEvent', method: 'POST', path: '/events/{eventId}/cancel', description: 'Cancel an event', flags: ['eventId!'] },
  {
    operationId: 'changeEventStatus',
    method: 'POST',
    path: '/events/{eventId}/status',
    description: "Set an event's status: INACTIVE, ARCHIVED or ACTIVE",
    flags: ['eventId!', 'status!'],
    choices: { status: eventStatusChange.shape.status.options },
  },
  {
    operationId: 'createOrder',
    method: 'POST',
    path: '/events/{eventId}/orders',
    description: 'Place an order (items as JSON: --items \'[{"ticketTypeId":"…","quantity":2}]\')',
    flags: ['eventId!', 'items[]!', 'buyer.name!', 'buyer.email!', 'status'],
    choices: { status: orderCreate.shape.status.unwrap().options },
  },
  {
    operationId: 'payOrder',
    method: 'POST',
    path: '/orders/{orderId}/pay',
    description: 'Mark a pending order paid and issue its tickets',
    flags: ['orderId!'],
  },
  {
    operationId: 'refundOrder',
    method: 'POST',
    path: '/orders/{orderId}/refund',
    description: 'Refund a confirmed order and void its tickets',
    flags: ['orderId!'],
  },
  { operationId: 'listProfiles', method: 'GET', path: '/profiles', description: 'List profiles, newest first', flags: ['page', 'limit'] },
  {
    operationId: 'listProfileVerifications',
    method: 'GET',
    path: '/profiles/{id}/verifications',
    description: "List a profile's identity verifications, newest first, optionally by status or by a part of their reference",
    flags: ['id!', 'status', 'reference', 'page', 'limit'],
    choices: { status: VERIFICATION_STATUSES },
  },
  {
    operationId: 'getProfileVerification',
    method: 'GET',
    path: '/profiles/{id}/verifications/{verificationId}',
    description: "One verification of a profile: its timeline, reviewers' decisions and notes, image links and decision webhook deliveries",
    flags: ['id!', 'verificationId!'],
  },
  {
    operationId: 'restartCapture',
    method: 'POST',
    path: '/profiles/{id}/verifications/{verificationId}/capture-restart',
    description:
      'Start the capture of a verification declined for image quality again: its images are removed and a new link is issued (the token is shown once)',
    flags: ['id!', 'verificationId!'],
  },
  {
    operationId: 'issueCaptureLink',
    method: 'POST',
    path: '/profiles/{id}/verifications/{verificationId}/capture-link',
    description: 'Issue a new capture link for a verification still in capture (earlier links stop working; the token is shown once)',
    flags: ['id!', 'verificationId!'],
  },
  {
    operationId: 'getVerificationDocumentImage',
    method: 'GET',
    path: '/profiles/{id}/verifications/{verificationId}/images/document',
    description: "Fetch a verification's document image (recorded in its audit trail; the CLI says its type and size)",
    flags: ['id!', 'verificationId!'],
  },
  {
    operationId: 'getVerificationDocumentBackImage',
    method: 'GET',
    path: '/profiles/{id}/verifications/{verificationId}/images/document-back',
    description: "Fetch the back of a verification's document (recorded in its audit trail; the CLI says its type and size)",
    flags: ['id!', 'verificationId!'],
  },
  {
    operationId: 'getVerificationSelfieImage',
    method: 'GET',
    path: '/profiles/{id}/verifications/{verificationId}/images/selfie/{step}',
    description: 'Fetch one selfie frame of a verification (recorded in its audit trail; the CLI says its type and size)',
    flags: ['id!', 'verificationId!', 'step!'],
  },
  {
    operationId: 'listProfileEvents',
    method: 'GET',
    path: '/profiles/{id}/events',
    description: "List a profile's ticketing events, latest start first, optionally by status",
    flags: ['id!', 'status', 'page', 'limit'],
    choices: { status: EVENT_STATUSES },
  },
  {
    operationId: 'listProfileGovernance',
    method: 'GET',
    path: '/profiles/{id}/governance',
    description: "List a profile's governance agents and delegations",
    flags: ['id!'],
  },
  {
    operationId: 'scanTicket',
    method: 'POST',
    path: '/events/{eventId}/check-ins',
    description: 'Check a ticket in at the door',
    flags: ['eventId!', 'ticketId!'],
  },
];
