import { validate, compileErrors } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiTags, registeredRoutes } from '../../src/docs/openapi.js';
import { useTestApp } from '../helpers/suite.js';

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  tags?: { name: string; description?: string }[];
  'x-tagGroups'?: { name: string; tags: string[] }[];
  components?: { securitySchemes?: Record<string, unknown> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Fastify's `/a/:id` is OpenAPI's `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Written over whatever is registered: every route any API mounts must appear in the generated
 * document with an operationId, a service tag, its success and its error bodies.
 */
describe('the OpenAPI document', () => {
  // Every operation is called without a credential; the brake on failed authentication has its own test (test/plugins/auth-brake.test.ts).
  const { ctx } = useTestApp({ env: { AUTH_FAILURE_LIMIT_PER_MINUTE: '100000' } });
  let doc: Document;
  beforeAll(async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ path, method, op })),
    );

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) expect.fail(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('covers every registered route, each with an operationId', () => {
    const routes = registeredRoutes(ctx.app).filter((r) => !r.hidden && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes
      .filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]?.operationId)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    // And the other way: nothing in the document that the app does not serve.
    const served = new Set(routes.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url)}`));
    expect(
      operations()
        .map((o) => `${o.method} ${o.path}`)
        .filter((o) => !served.has(o)),
    ).toEqual([]);
  });

  it('includes the health probes and the operator API', () => {
    expect(doc.paths['/health']?.get?.operationId).toBe('health');
    expect(doc.paths['/ready']?.get?.responses).toHaveProperty('503');
    expect(doc.paths['/admin/v1/profiles']?.post?.operationId).toBe('createProfile');
  });

  it('files every operation under one of the service tags', () => {
    const services = openApiTags.map((t) => t.name as string);
    expect(doc.tags?.map((t) => t.name)).toEqual(expect.arrayContaining(services));
    // A sub-tag such as "identity: capture" names its service first; other tags may come along.
    const ofService = (tag: string) => services.some((s) => tag === s || tag.startsWith(`${s}: `));
    const untagged = operations()
      .filter(({ op }) => !op.tags?.some(ofService))
      .map(({ method, path, op }) => `${method} ${path} [${op.tags?.join(',') ?? ''}]`);
    expect(untagged).toEqual([]);
  });

  it('documents a success and, beyond liveness, the error bodies of every operation', () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations()) {
      const codes = Object.keys(op.responses ?? {});
      if (!codes.some((c) => /^2\d\d$/.test(c))) problems.push(`${method} ${path}: no 2xx response`);
      if (path === '/health') continue;
      const errors = codes.filter((c) => /^[45]\d\d$/.test(c));
      if (errors.length === 0) problems.push(`${method} ${path}: no error response`);
      // The probes take no input and no credential; every other operation has client errors
      // (redocly.yaml leaves this check to this test).
      if (path !== '/ready' && !codes.some((c) => /^4\d\d$/.test(c))) problems.push(`${method} ${path}: no 4xx response`);
      for (const code of errors) {
        if (!op.responses![code]!.content) problems.push(`${method} ${path}: ${code} has no body schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents the 503 of a database outage on every operation of the four APIs', () => {
    const services = ['ticketing', 'identity', 'governance', 'operator'];
    const missing = operations()
      .filter(({ op }) => op.tags?.some((t) => services.some((s) => t === s || t.startsWith(`${s}: `))))
      .filter(({ op }) => !op.responses?.['503']?.content)
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
    const identity = operations().find(({ op }) => op.tags?.some((t) => t.startsWith('identity')));
    if (identity) {
      expect(identity.op.responses!['503']!.content!['application/json']!.schema).toMatchObject({ required: ['detail'] });
    }
  });

  it('introduces each API as a named group in /docs: what it is for, how to authenticate, its errors', () => {
    for (const name of ['ticketing', 'identity', 'governance', 'operator']) {
      const description = doc.tags?.find((t) => t.name === name)?.description ?? '';
      expect(description, name).toMatch(/^\*\*[^*]+\*\* \(`\//);
      expect(description, name).toMatch(/\*\*Authentication:\*\* .*Bearer/);
      expect(description, name).toMatch(/\*\*Errors:\*\* `\{/);
    }
    // Every tag an operation uses is declared (with its description) and sits in a group.
    const grouped = new Set(doc['x-tagGroups']?.flatMap((g) => g.tags));
    const declared = new Set(doc.tags?.filter((t) => t.description).map((t) => t.name));
    const used = new Set(operations().flatMap(({ op }) => op.tags ?? []));
    expect(
      [...used].filter((t) => !declared.has(t) || !grouped.has(t)),
      'tags to declare in src/docs/openapi.ts (openApiTags, tagGroups)',
    ).toEqual([]);
  });

  it('declares the credential of every operation, and only the public ones need none', () => {
    const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
    const problems: string[] = [];
    for (const { method, path, op } of operations()) {
      if (!Array.isArray(op.security)) problems.push(`${method} ${path}: no security (securityOf in src/plugins/openapi-security.ts)`);
      for (const name of op.security?.flatMap((s) => Object.keys(s)) ?? []) {
        if (!schemes.has(name)) problems.push(`${method} ${path}: undeclared security scheme ${name}`);
      }
    }
    expect(problems).toEqual([]);
    const open = operations()
      .filter(({ op }) => op.security?.length === 0)
      .map(({ op }) => op.operationId)
      .sort();
    expect(open).toEqual([
      'getProofBoundaries',
      'health',
      'identityJwks',
      'listAttestationClaims',
      'listGovernanceKeys',
      'listGovernanceLogKeys',
      'ready',
      'verifyGovernanceRecord',
    ]);
  });

  it('every operation that declares a credential answers 401 without one, in its API’s error format', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const wrong: string[] = [];
    for (const { method, path, op } of operations().filter(({ op }) => op.security?.length)) {
      const res = await ctx.app.inject({ method: method.toUpperCase() as 'GET', url: path.replace(/\{\w+\}/g, id) });
      const body = res.json();
      const shaped = 'detail' in body || body.error?.code === 'UNAUTHORIZED';
      if (res.statusCode !== 401 || !shaped) wrong.push(`${method} ${path} (${op.operationId}): ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it('operationIds are unique', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('serves browsable docs at /docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
