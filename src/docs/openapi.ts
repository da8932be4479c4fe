import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { contentSecurityPolicy } from '../plugins/security-headers.js';
import { documentIdempotency } from '../idempotency/openapi.js';
import { applyExamples, type OperationExamples } from './openapi-example-types.js';
import examples from './openapi-examples.json' with { type: 'json' };
import { securitySchemes } from '../plugins/openapi-security.js';

/** The examples, real answers recorded by test/docs/openapi-examples.test.ts (UPDATE_OPENAPI_EXAMPLES=1). */
const operationExamples: OperationExamples = examples;

const ERROR_FORMATS = {
  envelope:
    '`{"success": false, "error": {"code": "NOT_FOUND", "message": "…", "details": [{"path": "body.name", "message": "…"}]}}`; `details` only on validation errors (400). Successes are `{"success": true, "data": …}`.',
};

/**
 * The tags every operation is filed under: one per API (its description is the API's
 * introduction in /docs: what it is for, how to authenticate, its error format), the identity
 * API's sub-tags, and the probes.
 */
export const openApiTags = [
  {
    name: 'ticketing',
    description:
      '**Ticketing Partner API** (`/api/v1`). For an organizer’s own systems: its events (create and change drafts, list, read), their ticket types, orders, issued tickets and door check-ins.\n\n' +
      '**Authentication:** `Authorization: Bearer tk_live_…`, a ticketing key of the organizer profile (ENTERPRISE plan) with the scope each operation names. Rate limit per key: TICKETING_RATE_LIMIT_PER_MINUTE (120 by default), then 429 with Retry-After.\n\n' +
      `**Errors:** ${ERROR_FORMATS.envelope}`,
  },
  {
    name: 'identity',
    description:
      '**Identity Verification Service** (`/v1`). Verifies a person against an identity document: the partner’s backend creates a verification and passes its handoff token to the user’s device; the device uploads the document and one selfie frame per liveness step; a decision pipeline approves, declines or sends it to manual review, where reviewers decide. The backend learns the decision from a signed webhook or by polling, and can get signed attestations of claims.\n\n' +
      '**Authentication:** `Authorization: Bearer …` with an identity key of role `backend` (`idv_live_…`) for verifications and attestations, of role `reviewer` for the review queue, or the verification’s handoff token for the capture endpoints. The claim catalogue and the JWKS are public.\n\n' +
      '**Errors:** `{"detail": "…"}`, exactly one field (an upload under 320×240 adds `"code": "image_too_small"`); invalid input is 422.',
  },
  { name: 'identity: verifications', description: 'Identity Verification Service: the partner backend’s verifications (backend key).' },
  {
    name: 'identity: capture',
    description: 'Identity Verification Service: the end user’s device uploads the document and the selfie frames (handoff token).',
  },
  { name: 'identity: review', description: 'Identity Verification Service: manual review (reviewer key).' },
  {
    name: 'identity: attestations',
    description: 'Identity Verification Service: signed attestations of claims and the public keys that verify them.',
  },
  {
    name: 'governance',
    description:
      '**Governance Evidence Service** (`/v1/governance`, `/v1/proof`, `/v1/crypto`, `/v1/challenge`, `/v1/carrier`). Gates the actions of AI agents: each decision is checked against behaviour, mandate, delegation and human presence, and sealed as a record signed with Ed25519 and chained per tenant; the execution boundary admits an ALLOW record exactly once, and anyone can verify a record with the public keys.\n\n' +
      '**Authentication:** `Authorization: Bearer gov_live_…`, a governance key with the scope each operation names (governance:decide or governance:read). The proof-boundary statement, the public keys and signature verification are public. Rate limit: GOVERNANCE_RATE_LIMIT_PER_MINUTE per key (per client IP on the public routes).\n\n' +
      '**Errors:** `{"error": {"code": "VALIDATION_ERROR", "message": "…"}}`.',
  },
  {
    name: 'operator',
    description:
      '**Operator API** (`/admin/v1`). Stands in for the account dashboard: profiles (tenants) and their venues, API keys of the three services, webhook endpoints and their deliveries, and the operator actions of each service (ticket types, publishing, orders and door scans; governance agents and delegations; pipeline fault injection). The same operations run without HTTP as `npm run admin`.\n\n' +
      '**Authentication:** `Authorization: Bearer <ADMIN_TOKEN>`. Without ADMIN_TOKEN set, every path under /admin/v1 answers 404.\n\n' +
      `**Errors:** ${ERROR_FORMATS.envelope}`,
  },
  { name: 'operations', description: '**Operations.** Liveness (`/health`) and readiness (`/ready`) probes for orchestrators; public.' },
] as const;

/** The tags by API, for renderers that group tags (`x-tagGroups`, Redoc and Redocly). */
const tagGroups = [
  { name: 'Ticketing Partner API', tags: ['ticketing'] },
  {
    name: 'Identity Verification Service',
    tags: ['identity', 'identity: verifications', 'identity: capture', 'identity: review', 'identity: attestations'],
  },
  { name: 'Governance Evidence Service', tags: ['governance'] },
  { name: 'Operator API', tags: ['operator'] },
  { name: 'Operations', tags: ['operations'] },
];

type Operation = {
  tags?: string[];
  operationId?: string;
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
};
type Paths = Record<string, Record<string, Operation>>;

const message = { type: 'string' };
const envelopeError = {
  type: 'object',
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      properties: {
        code: message,
        message,
        details: { type: 'array', items: { type: 'object', properties: { path: message, message }, required: ['path', 'message'] } },
      },
      required: ['code', 'message'],
    },
  },
  required: ['success', 'error'],
};
/** The error body of each API (a component of the document), by the service its tag names. */
const errorBodies: [service: string, component: string, schema: object][] = [
  ['identity', 'IdentityError', { type: 'object', properties: { detail: message }, required: ['detail'], additionalProperties: false }],
  [
    'governance',
    'GovernanceError',
    {
      type: 'object',
      properties: { error: { type: 'object', properties: { code: message, message }, required: ['code', 'message'] } },
      required: ['error'],
    },
  ],
  ['ticketing', 'TicketingError', envelopeError],
  ['operator', 'OperatorError', envelopeError],
];

/**
 * Answers every route of an API can give without declaring them: the framework's own (a body
 * that is not JSON, too large or of another type; an unexpected failure) and the database
 * outage. Each API's error handler answers them in its own format, so the document adds them
 * to every operation of the four APIs, in that format.
 */
const commonErrors: { status: string; description: string; jsonBody?: boolean }[] = [
  { status: '400', description: 'The body is not valid JSON (or, outside the identity API, fails validation).', jsonBody: true },
  { status: '413', description: 'The body is larger than 1 MB.', jsonBody: true },
  { status: '415', description: 'The body is not application/json.', jsonBody: true },
  { status: '500', description: 'An unexpected failure on the server.' },
  { status: '503', description: 'The database is unreachable; retry later (GET /ready tells when it is back).' },
];

function documentCommonErrors(paths: Paths): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const component = errorBodies.find(([service]) => op.tags?.some((t) => t === service || t.startsWith(`${service}: `)))?.[1];
      if (!component) continue;
      const takesJson = Boolean(op.requestBody?.content?.['application/json']);
      for (const { status, description, jsonBody } of commonErrors) {
        if (op.responses[status] || (jsonBody && !takesJson)) continue;
        op.responses[status] = { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } } };
      }
    }
  }
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The multipart/form-data fields of an upload route, as JSON Schema, for the document only:
     * the route reads its form itself (a body schema would be validated against nothing).
     */
    multipartForm?: { type: 'object'; required?: string[]; properties: Record<string, object> };
    /** A success answer that is bytes, not JSON (an image), for the document only: its media types. */
    binaryResponse?: { status: number; description: string; mediaTypes: string[] };
  }
}

/** The routes' zod schemas as JSON Schema, and an upload route's form as its request body. */
const transform: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const { multipartForm, binaryResponse, ...schema } = out.schema as FastifySchema & Record<string, unknown>;
  if (multipartForm) schema.body = multipartForm;
  if (binaryResponse) {
    const bytes = { schema: { type: 'string', format: 'binary' } };
    const content = Object.fromEntries(binaryResponse.mediaTypes.map((type) => [type, bytes]));
    schema.response = { ...(schema.response as object), [binaryResponse.status]: { description: binaryResponse.description, content } };
  }
  return { ...out, schema };
};

interface RegisteredRoute {
  method: string;
  url: string;
  /** Left out of the document on purpose (the docs UI's own assets, /openapi.json). */
  hidden: boolean;
}

const routeTables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after the docs plugin, as Fastify saw it: what the document must cover. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return routeTables.get(app) ?? [];
}

/**
 * OpenAPI 3.1 generated from the routes' zod schemas, served at /openapi.json, browsable at
 * /docs. Registered before the APIs so it sees every route.
 */
export const openApiDocs = fp(
  async (app) => {
    const table: RegisteredRoute[] = [];
    routeTables.set(app, table);
    app.addHook('onRoute', (route) => {
      const hidden = Boolean((route.schema as { hide?: boolean } | undefined)?.hide);
      for (const method of [route.method].flat()) table.push({ method, url: route.url, hidden });
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Partner services',
          version: '1.0.0',
          license: { name: 'Proprietary: for partners of the service; not for redistribution' },
          description:
            'One server for three partner-facing services: the Ticketing Partner API (/api/v1), the Identity Verification Service (/v1), the Governance Evidence Service (/v1), plus the operator API (/admin/v1) and the health probes. All times are RFC 3339 UTC with milliseconds; all ids are UUIDs. Every API answers 503 in its own error format while the database is unreachable.',
        },
        // Relative: the document describes the server that serves it, wherever it runs.
        servers: [{ url: '/', description: 'The server that serves this document' }],
        tags: [...openApiTags],
        components: { securitySchemes },
      },
      transform,
      transformObject: (input) => {
        const doc = jsonSchemaTransformObject(input) as { paths?: Paths; components?: { schemas?: Record<string, unknown> } };
        doc.components = {
          ...doc.components,
          schemas: { ...doc.components?.schemas, ...Object.fromEntries(errorBodies.map(([, name, schema]) => [name, schema])) },
        };
        documentCommonErrors(doc.paths ?? {});
        documentIdempotency(doc.paths ?? {});
        applyExamples(doc.paths ?? {}, operationExamples);
        Object.assign(doc, { 'x-tagGroups': tagGroups });
        return doc as ReturnType<typeof jsonSchemaTransformObject>;
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // swagger-ui adds one <style> element at run time; its scripts stay 'self' only.
      transformStaticCSP: () => contentSecurityPolicy({ 'style-src': ["'unsafe-inline'"] }),
    });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi-docs' },
);
