import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { contentSecurityPolicy } from './security-headers.js';

/** The tags every operation is filed under, one per service plus the operator and ops surfaces. */
export const openApiTags = [
  { name: 'ticketing', description: 'Ticketing Partner API under /api/v1: events, ticket types, orders, issued tickets and door check-ins of one organizer profile. Errors: `{success:false, error:{code,message,details?}}`.' },
  { name: 'identity', description: 'Identity Verification Service under /v1: verifications, device capture with handoff tokens, the decision pipeline, manual review, attestations and decision webhooks. Errors: `{detail}`.' },
  { name: 'governance', description: 'Governance Evidence Service under /v1: sealed Ed25519-signed decisions, replay, scenarios, the execution boundary and bypass challenges. Errors: `{error:{code,message}}`.' },
  { name: 'operator', description: 'Operator API under /admin/v1 (bearer ADMIN_TOKEN): profiles, venues, API keys, webhook endpoints and deliveries, and the operator actions of each service.' },
  { name: 'operations', description: 'Liveness and readiness probes.' },
] as const;

type Operation = { tags?: string[]; responses?: Record<string, unknown> };
type Paths = Record<string, Record<string, Operation>>;

const message = { type: 'string' };
/** The error body of each API, by the service its tag names. */
const errorBodies: [string, object][] = [
  ['identity', { type: 'object', properties: { detail: message }, required: ['detail'], additionalProperties: false }],
  ['governance', { type: 'object', properties: { error: { type: 'object', properties: { code: message, message }, required: ['code', 'message'] } }, required: ['error'] }],
  ['ticketing', { type: 'object', properties: { success: { const: false }, error: { type: 'object', properties: { code: message, message }, required: ['code', 'message'] } }, required: ['success', 'error'] }],
  ['operator', { type: 'object', properties: { success: { const: false }, error: { type: 'object', properties: { code: message, message }, required: ['code', 'message'] } }, required: ['success', 'error'] }],
];

/**
 * Every API answers 503 in its own error format while the database is unreachable; routes do
 * not each declare it, so the document adds it to every operation of the four APIs.
 */
export function documentUnavailable(paths: Paths): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || !op.responses || op.responses['503']) continue;
      const body = errorBodies.find(([service]) => op.tags?.some((t) => t === service || t.startsWith(`${service}: `)))?.[1];
      if (!body) continue;
      op.responses['503'] = {
        description: 'The database is unreachable; retry later (GET /ready tells when it is back).',
        content: { 'application/json': { schema: body } },
      };
    }
  }
}

export interface RegisteredRoute {
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
          description:
            'One server for three partner-facing services: the Ticketing Partner API (/api/v1), the Identity Verification Service (/v1), the Governance Evidence Service (/v1), plus the operator API (/admin/v1) and the health probes. All times are RFC 3339 UTC with milliseconds; all ids are UUIDs. Every API answers 503 in its own error format while the database is unreachable.',
        },
        tags: [...openApiTags],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
      transform: jsonSchemaTransform,
      transformObject: (input) => {
        const doc = jsonSchemaTransformObject(input) as { paths?: Paths };
        documentUnavailable(doc.paths ?? {});
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
