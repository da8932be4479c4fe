import { is, getTableName, Table } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tables from '../../src/db/schema/index.js';
import { ADMIN_TOKEN, buildTestApp } from '../helpers/app.js';
import { createFixtures, type Fixtures } from './fixtures.js';
import {
  anyJson,
  hostileId,
  hostileQuery,
  multipartBody,
  nastyString,
  operationsOf,
  pathsOf,
  rawBytes,
  rawContentType,
  replaceAt,
  resolver,
  sampleOf,
  unstorableString,
  type Json,
  type Operation,
} from './requests.js';

/**
 * Property-based requests against every operation of the served OpenAPI document: random JSON,
 * valid bodies with one member replaced or removed, unknown members, raw bytes that are not
 * JSON, hostile query strings and path ids, multipart forms, bad credentials, and text the
 * database cannot store. Whatever comes in: never a 5xx, never a stack trace, SQL or internal
 * name, errors in the API's own format, and the server still ready afterwards.
 *
 * PROPERTY_RUNS (requests per operation, default 20), PROPERTY_SEED (replay a failure; the seed
 * is printed with it) and PROPERTY_OPERATION (one operationId) tune a run.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 20);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const ONLY = process.env.PROPERTY_OPERATION;

const ctx = await buildTestApp({
  env: {
    TICKETING_RATE_LIMIT_PER_MINUTE: '1000000',
    IDENTITY_RATE_LIMIT_PER_MINUTE: '1000000',
    CAPTURE_RATE_LIMIT_PER_MINUTE: '1000000',
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ADMIN_RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '1000000',
  },
});
const doc = ctx.app.swagger() as any;
const resolve = resolver(doc);
const operations = operationsOf(doc).filter((op) => !ONLY || op.operationId === ONLY);

type Api = 'operator' | 'ticketing' | 'identity' | 'governance' | 'other';

/** Which API an operation belongs to, from its path and tags: that decides key and error format. */
function apiOf(op: Operation): Api {
  if (op.path.startsWith('/admin/v1/')) return 'operator';
  if (op.path.startsWith('/api/v1/')) return 'ticketing';
  if (op.path.startsWith('/v1/') && op.tags.some((t) => t.startsWith('identity'))) return 'identity';
  if (op.path.startsWith('/v1/') && op.tags.some((t) => t.startsWith('governance'))) return 'governance';
  return 'other';
}

/** Words that must never reach a client: stack frames, SQL errors, the ORM, internal table names. */
const internalTableNames = Object.values(tables)
  .filter((t) => is(t, Table))
  .map((t) => getTableName(t as Table))
  .filter((name) => name.includes('_'));
const LEAKS: RegExp[] = [
  /\bat [\w$.<>]+ \(/,
  /at Object\./,
  /node_modules/,
  /drizzle/i,
  /\bviolates\b/,
  /\brelation "/,
  /syntax error at or near/,
  /duplicate key value/,
  /invalid byte sequence/,
  /unsupported Unicode escape/,
  /invalid input syntax for type/,
  /\bPGlite\b/i,
  /\.ts:\d+:\d+/,
  /\.js:\d+:\d+/,
  ...internalTableNames.map((name) => new RegExp(`\\b${name}\\b`)),
];

class PropertyFailure extends Error {}

function fail(message: string, req: Sent, res: LightMyRequestResponse): never {
  const payload =
    req.payload === undefined
      ? ''
      : ` body ${(Buffer.isBuffer(req.payload) ? req.payload.toString('utf8') : typeof req.payload === 'string' ? req.payload : JSON.stringify(req.payload)).slice(0, 300)}`;
  throw new PropertyFailure(
    `${message}\n  ${req.method} ${req.url.slice(0, 300)}${payload}\n  → ${res.statusCode} ${res.body.slice(0, 500)}`,
  );
}

/** The error body of each API (docs/architecture.md: one format per API). */
function checkErrorFormat(api: Api, req: Sent, res: LightMyRequestResponse): void {
  if (api === 'other' || res.statusCode < 400) return;
  let body: any;
  try {
    body = res.json();
  } catch {
    fail(`${api} error is not JSON`, req, res);
  }
  const isText = (v: unknown) => typeof v === 'string' && v.length > 0;
  const ok =
    api === 'identity'
      ? Object.keys(body ?? {}).join() === 'detail' && isText(body.detail)
      : api === 'governance'
        ? Object.keys(body ?? {}).join() === 'error' && isText(body.error?.code) && isText(body.error?.message)
        : body?.success === false &&
          isText(body.error?.code) &&
          isText(body.error?.message) &&
          Object.keys(body).every((k) => k === 'success' || k === 'error') &&
          (body.error.details === undefined ||
            (Array.isArray(body.error.details) && body.error.details.every((d: any) => isText(d?.path) || d?.path === '')));
  if (!ok) fail(`${api} error is not in the API's own format`, req, res);
}

function checkAnswer(api: Api, req: Sent, res: LightMyRequestResponse): void {
  if (res.statusCode >= 500) fail('server error', req, res);
  for (const leak of LEAKS) if (leak.test(res.body)) fail(`answer leaks internals (${leak})`, req, res);
  checkErrorFormat(api, req, res);
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer | object;
  /** An extra expectation of this request (text that cannot be stored must be refused, naming the field). */
  expect?: (res: LightMyRequestResponse) => string | null;
}

let fx: Fixtures;
const statuses = new Map<string, number[]>();

beforeAll(async () => {
  fx = await createFixtures(ctx);
}, 180_000);
afterAll(() => ctx.close());

/** The bearer token an operation needs to get past authentication. */
function tokenFor(op: Operation): string | undefined {
  switch (apiOf(op)) {
    case 'operator':
      return ADMIN_TOKEN;
    case 'ticketing':
      return fx.ticketingKey;
    case 'identity':
      if (op.tags.some((t) => t.includes('capture'))) return fx.ownHandoffToken[op.operationId] ?? fx.handoffToken;
      if (op.tags.some((t) => t.includes('review'))) return fx.reviewerKey;
      return fx.identityKey;
    case 'governance':
      return fx.governanceKey;
    default:
      return undefined;
  }
}

/** The known-good value of a path parameter: the seed table, the resource the path names, else a fresh UUID. */
function pathValue(op: Operation, name: string): string {
  const seeded = fx.seeds[op.operationId]?.params?.[name];
  if (seeded) return seeded;
  if (fx.byParam[name]) return fx.byParam[name]!;
  const segments = op.path.split('/');
  const resource = segments[segments.indexOf(`{${name}}`) - 1] ?? '';
  return fx.byResource[resource] ?? '00000000-0000-4000-8000-000000000000';
}

function urlOf(op: Operation, params: Record<string, string> = {}, query?: string): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => params[name] ?? encodeURIComponent(pathValue(op, name)));
  const seededQuery = fx.seeds[op.operationId]?.query;
  const q = query ?? (seededQuery ? new URLSearchParams(seededQuery).toString() : '');
  return q ? `${path}?${q}` : path;
}

function validBody(op: Operation): Json | undefined {
  const seeded = fx.seeds[op.operationId]?.body;
  if (seeded !== undefined) return seeded as Json;
  return op.bodySchema ? sampleOf(op.bodySchema, resolve) : undefined;
}

function headers(op: Operation, contentType?: string, token = tokenFor(op)): Record<string, string> {
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(contentType ? { 'content-type': contentType } : {}) };
}

const takesBody = (op: Operation) => op.method !== 'GET' && op.method !== 'DELETE';

/** A JSON request; lone surrogates survive as `\ud800` escapes because the payload is serialized here. */
function jsonRequest(op: Operation, body: Json | undefined, extra: Partial<Sent> = {}): Sent {
  return {
    method: op.method,
    url: urlOf(op),
    headers: headers(op, body === undefined ? undefined : 'application/json'),
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    ...extra,
  };
}

const dotted = (path: (string | number)[]) => ['body', ...path].join('.');
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const valueAt = (value: Json, path: (string | number)[]): Json => path.reduce<any>((node, key) => node?.[key], value);

/** The refusal of text the database cannot store: a 4xx naming the member (or the canonical-JSON path of governance's parser). */
function namesMember(where: (string | number)[], recordFirst?: number): (res: LightMyRequestResponse) => string | null {
  return (res) => {
    if (res.statusCode < 400 || res.statusCode >= 500) return 'text the database cannot store must be refused with a 4xx';
    // The path's record is checked before the body (404/409): the valid body got that answer too.
    if (res.statusCode === recordFirst) return null;
    const canonical = `$${where.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')}`;
    return res.body.includes(dotted(where)) || res.body.includes(`${canonical} (at`) ? null : `the refusal must name ${dotted(where)}`;
  };
}

/** One request per member of the valid body (a NUL, then a lone surrogate) and per query parameter (a NUL). */
function unstorableSweep(op: Operation, baseline: number): Sent[] {
  const recordFirst = baseline === 404 || baseline === 409 ? baseline : undefined;
  const valid = validBody(op);
  const sent: Sent[] = [];
  if (takesBody(op) && valid !== undefined && valid !== null && typeof valid === 'object') {
    for (const path of pathsOf(valid).filter((p) => p.length > 0)) {
      for (const text of ['a\u0000b', 'a\ud800b'])
        sent.push(jsonRequest(op, replaceAt(valid, path, text), { expect: namesMember(path, recordFirst) }));
    }
  }
  for (const name of op.queryParams) {
    sent.push({
      ...jsonRequest(op, takesBody(op) ? valid : undefined),
      url: urlOf(op, {}, `${name}=a%00b`),
      expect: (res) =>
        res.statusCode === recordFirst || ((res.statusCode === 400 || res.statusCode === 422) && res.body.includes(`querystring.${name}`))
          ? null
          : `a NUL in query ${name} must be a 400/422 naming querystring.${name}`,
    });
  }
  return sent;
}

/** The arbitrary of every kind of request this operation can receive. */
function requestsFor(op: Operation): fc.Arbitrary<Sent> {
  const valid = validBody(op);
  const kinds: fc.Arbitrary<Sent>[] = [];
  const query = fx.seeds[op.operationId]?.query;
  const knownQuery = [...op.queryParams, ...Object.keys(query ?? {})];

  kinds.push(hostileQuery(knownQuery).map((q) => ({ ...jsonRequest(op, valid), url: urlOf(op, {}, q) })));
  kinds.push(
    fc.oneof(fc.constant(undefined), nastyString).map((token) => ({
      ...jsonRequest(op, valid),
      headers: headers(op, valid === undefined ? undefined : 'application/json', token?.replace(/[^\x21-\x7e]/g, '') || undefined),
    })),
  );
  if (op.pathParams.length > 0) {
    kinds.push(
      fc
        .record(
          Object.fromEntries(
            op.pathParams.map((name) => [
              name,
              fc.oneof(
                // A whole segment of "." or ".." (encoded or not) is a dot-segment every URL
                // parser resolves before sending (WHATWG URL), so the request would go to another
                // path, of possibly another API; such ids are not ids a client can send.
                hostileId.map((id) => id.replace(/\./g, '%2E')).filter((id) => !/^(%2E){1,2}$/i.test(id)),
                fc.constant(encodeURIComponent(pathValue(op, name))),
              ),
            ]),
          ),
        )
        .map((params) => ({
          ...jsonRequest(op, valid),
          url: urlOf(op, params as Record<string, string>),
        })),
    );
  }
  if (takesBody(op)) {
    kinds.push(anyJson.map((body) => jsonRequest(op, body)));
    kinds.push(
      fc
        .tuple(rawBytes, rawContentType)
        .map(([bytes, type]) => ({ method: op.method, url: urlOf(op), headers: headers(op, type), payload: bytes })),
    );
    const fieldName = fc.oneof(
      fc.constantFrom('mrz', 'step', 'file', ...op.formFields, ...Object.keys((valid as object) ?? {})),
      nastyString,
    );
    kinds.push(
      fc
        .tuple(
          fc.array(fc.tuple(fieldName, fc.oneof(nastyString, fc.constantFrom('0', '1', '-1', '99', 'P<NLD'))), { maxLength: 4 }),
          fc.option(fc.uint8Array({ maxLength: 2048 })),
        )
        .map(([fields, file]) => {
          const form = multipartBody(fields, file ? Buffer.from(file) : undefined);
          const hasNul = fields.some(([name, value]) => name.includes('\u0000') || value.includes('\u0000'));
          return {
            method: op.method,
            url: urlOf(op),
            headers: headers(op, form.contentType),
            payload: form.payload,
            expect: hasNul
              ? (res: LightMyRequestResponse) => (res.statusCode >= 400 ? null : 'a form field with a NUL must not be accepted')
              : undefined,
          };
        }),
    );
  }
  if (valid !== undefined && valid !== null && typeof valid === 'object') {
    const paths = pathsOf(valid).filter((p) => p.length > 0);
    if (paths.length > 0) {
      kinds.push(
        fc
          .tuple(fc.constantFrom(...paths), fc.option(anyJson, { freq: 4 }))
          .map(([path, replacement]) => jsonRequest(op, replaceAt(valid, path, replacement ?? undefined))),
      );
      // Text the database cannot store, at any member or as a property name: refused, naming where.
      const objects = pathsOf(valid).filter((p) => isObject(valueAt(valid, p)));
      const placed = fc.oneof(
        fc.tuple(fc.constantFrom(...paths), unstorableString).map(([path, text]) => ({ body: replaceAt(valid, path, text), where: path })),
        fc
          .tuple(fc.constantFrom(...objects), unstorableString)
          .map(([path, text]) => ({ body: replaceAt(valid, path, { ...(valueAt(valid, path) as object), [text]: 1 }), where: path })),
      );
      kinds.push(placed.map(({ body, where }) => jsonRequest(op, body, { expect: namesMember(where) })));
    }
    kinds.push(
      fc
        .dictionary(nastyString, anyJson, { minKeys: 1, maxKeys: 3 })
        .map((extra) => jsonRequest(op, { ...extra, ...(valid as object) } as Json)),
    );
  }
  return fc.oneof(...kinds);
}

async function send(req: Sent): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: req.method as InjectOptions['method'],
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload as InjectOptions['payload'] }),
  });
}

describe('every operation of the OpenAPI document survives arbitrary input', () => {
  it('reads a document with operations of all four APIs', () => {
    const apis = new Set(operations.map(apiOf));
    if (!ONLY) for (const api of ['operator', 'ticketing', 'identity', 'governance'] as const) expect(apis).toContain(api);
    expect(operations.length).toBeGreaterThan(0);
  });

  for (const op of operations) {
    it(`${op.operationId}: ${op.method} ${op.path}`, async () => {
      const api = apiOf(op);
      const seen: number[] = [];
      statuses.set(op.operationId, seen);

      // The known-good request first: it must get past authentication into the route itself.
      const base = jsonRequest(op, validBody(op));
      const first = await send(base);
      checkAnswer(api, base, first);
      seen.push(first.statusCode);
      if (api !== 'other')
        expect([401, 403], `${op.operationId} with its key: ${first.body.slice(0, 300)}`).not.toContain(first.statusCode);

      // Text the database cannot store at each member of the valid body and in each query
      // parameter, one request each: always refused, naming where.
      for (const req of unstorableSweep(op, first.statusCode)) {
        const res = await send(req);
        seen.push(res.statusCode);
        checkAnswer(api, req, res);
        const problem = req.expect?.(res);
        if (problem) fail(problem, req, res);
      }

      try {
        await fc.assert(
          fc.asyncProperty(requestsFor(op), async (req) => {
            const res = await send(req);
            seen.push(res.statusCode);
            checkAnswer(api, req, res);
            const problem = req.expect?.(res);
            if (problem) fail(problem, req, res);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      } catch (err) {
        throw new Error(`${(err as Error).message}\nReplay: PROPERTY_SEED=${SEED} PROPERTY_OPERATION=${op.operationId}`, { cause: err });
      }
    }, 120_000);
  }

  it('is still ready afterwards, and every API was reached past authentication', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    const neverAuthenticated = operations
      .filter((op) => apiOf(op) !== 'other')
      .filter((op) => (statuses.get(op.operationId) ?? []).every((s) => s === 401 || s === 403))
      .map((op) => op.operationId);
    expect(neverAuthenticated).toEqual([]);
  });
});
