import type { FastifyInstance } from 'fastify';

/**
 * The credentials of the four APIs as OpenAPI security schemes, by name. Each route declares
 * the one its auth hook checks (`security: securityOf.…`); public routes declare `security: []`
 * so a missing declaration is a lint error, never an accidental "public".
 */
export const securitySchemes = {
  ticketingKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'tk_live_…',
    description:
      'A ticketing API key of the organizer profile (`tk_live_…`), issued by the operator API (POST /admin/v1/api-keys) with the scopes each operation names: events:read, events:write, orders:read, tickets:read, attendees:read. The profile must be on the ENTERPRISE plan.',
  },
  identityBackendKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'idv_live_…',
    description:
      'An identity API key with role `backend` (`idv_live_…`), for the partner’s server: creates, polls, hands off and erases verifications, issues attestations. A reviewer key answers 403.',
  },
  identityReviewerKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'idv_live_…',
    description:
      'An identity API key with role `reviewer` (`idv_live_…`), for the people who decide verifications in manual review. A backend key answers 403.',
  },
  captureHandoffToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The handoff token of one verification, for the end user’s device: returned by POST /v1/verifications and POST /v1/verifications/{id}/handoff, valid 30 minutes, revoked by a newer one or by DELETE /v1/verifications/{id}/handoff. Missing, expired or revoked → 401.',
  },
  governanceKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'gov_live_…',
    description: 'A governance API key (`gov_live_…`) with the scope each operation names: governance:decide or governance:read.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token: the server’s ADMIN_TOKEN setting (16+ characters). Without ADMIN_TOKEN the operator API does not exist and every path under /admin/v1 answers 404.',
  },
} as const;

type SchemeName = keyof typeof securitySchemes;
const only = (name: SchemeName) => [{ [name]: [] as string[] }];

/** The `security` of a route's schema, by the credential its auth hook checks. */
export const securityOf = {
  ticketing: only('ticketingKey'),
  identityBackend: only('identityBackendKey'),
  identityReviewer: only('identityReviewerKey'),
  captureHandoff: only('captureHandoffToken'),
  governance: only('governanceKey'),
  operator: only('adminToken'),
  /** No credential: anyone may call it. */
  none: [] as Record<string, string[]>[],
};

/**
 * Declares `security` for every route of a scope whose auth hook guards all of them (the
 * operator API): routes that declare their own keep it.
 */
export function documentScopeSecurity(scope: FastifyInstance, security: Record<string, string[]>[]): void {
  scope.addHook('onRoute', (route) => {
    if (route.schema && !('security' in route.schema)) route.schema = { ...route.schema, security };
  });
}
