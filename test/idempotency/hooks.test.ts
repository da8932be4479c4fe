import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useIdempotency, type IdempotentApi } from '../../src/idempotency/hooks.js';
import { KEY_LEASE_MS, KEY_TTL_MS } from '../../src/idempotency/key.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';

const httpError = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });

/** A stand-in API: the caller is a header, errors are the framework's default body. */
const testApi: IdempotentApi = {
  honours: (url) => url.startsWith('/things'),
  callerOf: (req) => String(req.headers['x-caller'] ?? 'caller-a'),
  invalidKey: (message) => httpError(400, message),
  keyReused: () => httpError(422, 'reused'),
  keyInUse: () => httpError(409, 'in use'),
};

type Route = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A gate a handler waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  return { open, arrived, wait: () => (reached(), opened) };
}

describe('Idempotency-Key on the routes of an API', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let runs = 0;
  let route: Route;
  let keyCounter = 0;
  const freshKey = () => `key-${++keyCounter}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    ctx = await buildTestApp();
    app = Fastify({ bodyLimit: 64 * 1024 });
    app.decorate('db', ctx.app.db);
    app.decorate('clock', ctx.clock);
    await app.register(async (scope) => {
      useIdempotency(scope, testApi);
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        runs += 1;
        return route(req, reply);
      };
      scope.post('/things', handler);
      scope.patch('/things/:id', handler);
      scope.put('/things/:id', handler);
      scope.post('/others', handler);
      scope.get('/things', handler);
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  beforeEach(() => {
    runs = 0;
    route = async (req, reply) => reply.code(201).send({ made: runs, got: req.body ?? null });
  });

  const send = (opts: {
    key?: string;
    body?: unknown;
    url?: string;
    method?: InjectOptions['method'];
    caller?: string;
    payload?: unknown;
  }) =>
    app.inject({
      method: opts.method ?? 'POST',
      url: opts.url ?? '/things',
      headers: {
        ...(opts.key === undefined ? {} : { 'idempotency-key': opts.key }),
        ...(opts.caller ? { 'x-caller': opts.caller } : {}),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(opts.payload !== undefined
        ? { payload: opts.payload as InjectOptions['payload'] }
        : opts.body === undefined
          ? {}
          : { payload: JSON.stringify(opts.body) }),
    });

  const keyRows = async (key: string) =>
    rowsOf<{ status: number | null }>(await ctx.app.db.execute(sql`select status from idempotency_keys where key = ${key}`));

  it('answers a repeat with the first answer, byte for byte, without running the route again', async () => {
    route = async (_req, reply) =>
      reply
        .code(201)
        .type('application/vnd.things+json')
        .send('{"b":1,  "a":[ 2 ], "n":' + runs + '}');
    const key = freshKey();
    const first = await send({ key, body: { name: 'lamp', tags: ['a', 'b'] } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send({ key, body: { name: 'lamp', tags: ['a', 'b'] } });
    expect(again.statusCode).toBe(201);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(first.headers['content-type']).toMatch(/^application\/vnd.things\+json/);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  it('counts a JSON body by its values: other spacing and key order are the same request', async () => {
    const key = freshKey();
    await send({ key, payload: '{"name":"lamp","size":{"w":1,"h":2}}', body: {} });
    const reordered = await send({ key, payload: '{ "size": {"h": 2, "w": 1},\n "name": "lamp" }', body: {} });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  it('refuses the key with another body or another query (422) and keeps the first answer', async () => {
    const key = freshKey();
    const first = await send({ key, body: { name: 'lamp' } });
    const other = await send({ key, body: { name: 'chair' } });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe('reused');
    expect((await send({ key, url: '/things?colour=red', body: { name: 'lamp' } })).statusCode).toBe(422);
    expect((await send({ key, payload: 'not json', body: {} })).statusCode).toBe(422);
    expect(runs).toBe(1);
    expect((await send({ key, body: { name: 'lamp' } })).body).toBe(first.body);
  });

  it('scopes a key to its caller, method and path', async () => {
    const key = freshKey();
    await send({ key, body: { n: 1 } });
    const byOther = await send({ key, body: { n: 1 }, caller: 'caller-b' });
    const otherPath = await send({ key, body: { n: 1 }, url: '/things/7', method: 'PATCH' });
    const otherRoute = await send({ key, body: { n: 1 }, url: '/others' });
    for (const res of [byOther, otherPath, otherRoute]) {
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(runs).toBe(4);
  });

  it('answers 409 with Retry-After while the first request runs, then replays its answer', async () => {
    const key = freshKey();
    const held = gate();
    route = async (_req, reply) => {
      await held.wait();
      return reply.code(201).send({ finished: true });
    };
    const first = send({ key, body: { n: 1 } });
    await held.arrived;
    const meanwhile = await send({ key, body: { n: 1 } });
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.json().message).toBe('in use');
    expect(meanwhile.headers['retry-after']).toBe('1');
    expect(meanwhile.headers['idempotent-replayed']).toBeUndefined();
    held.open();
    expect((await first).statusCode).toBe(201);
    const after = await send({ key, body: { n: 1 } });
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  it('keeps successes and client errors, but not 401, 403, 429 or any 5xx', async () => {
    for (const status of [200, 202, 400, 404, 409, 410, 422]) {
      const key = freshKey();
      route = async (_req, reply) => reply.code(status).send({ status });
      await send({ key, body: {} });
      const again = await send({ key, body: {} });
      expect([status, again.statusCode, again.headers['idempotent-replayed']]).toEqual([status, status, 'true']);
    }
    for (const status of [401, 403, 429, 500, 502, 503]) {
      const key = freshKey();
      route = async (_req, reply) => reply.code(status).send({ status });
      await send({ key, body: {} });
      expect(await keyRows(key)).toEqual([]);
      route = async (_req, reply) => reply.code(201).send({ retried: true });
      const retry = await send({ key, body: {} });
      expect([status, retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([status, 201, undefined]);
    }
  });

  it('frees the key when the route throws, so the retry runs', async () => {
    const key = freshKey();
    route = async () => {
      throw new Error('database exploded');
    };
    expect((await send({ key, body: { n: 1 } })).statusCode).toBe(500);
    route = async (_req, reply) => reply.code(201).send({ ok: true });
    const retry = await send({ key, body: { n: 1 } });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(2);
  });

  it('lets a later request take a key whose run never answered once its lease ran out', async () => {
    const key = freshKey();
    const stuck = gate();
    route = async (_req, reply) => {
      await stuck.wait();
      return reply.code(201).send({ by: 'the stuck run' });
    };
    const first = send({ key, body: { n: 1 } });
    await stuck.arrived;
    ctx.clock.advance(KEY_LEASE_MS - 1);
    expect((await send({ key, body: { n: 1 } })).statusCode).toBe(409);
    ctx.clock.advance(1);
    route = async (_req, reply) => reply.code(201).send({ by: 'the retry' });
    const retry = await send({ key, body: { n: 1 } });
    expect(retry.json()).toEqual({ by: 'the retry' });
    // The stuck run answers at last; the key keeps the answer of the run that holds it.
    stuck.open();
    expect((await first).json()).toEqual({ by: 'the stuck run' });
    const later = await send({ key, body: { n: 1 } });
    expect(later.json()).toEqual({ by: 'the retry' });
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  it('forgets a key after 24 hours', async () => {
    const key = freshKey();
    await send({ key, body: { n: 1 } });
    ctx.clock.advance(KEY_TTL_MS - 1);
    expect((await send({ key, body: { n: 1 } })).headers['idempotent-replayed']).toBe('true');
    ctx.clock.advance(1);
    const fresh = await send({ key, body: { n: 2 } });
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(2);
  });

  it('refuses a malformed key before anything runs', async () => {
    for (const key of ['', 'k'.repeat(256), 'schlüssel', 'tab\there']) {
      const res = await send({ key, body: { n: 1 } });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().message).toBe('Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    expect((await send({ key: 'k'.repeat(255), body: { n: 1 } })).statusCode).toBe(201);
    expect((await send({ key: ' !~{}"', body: { n: 1 } })).statusCode).toBe(201);
    expect(runs).toBe(2);
  });

  it('runs every request without a key, and ignores the key where it is not honoured', async () => {
    await send({ body: { n: 1 } });
    await send({ body: { n: 1 } });
    const key = freshKey();
    await send({ key, method: 'GET' });
    await send({ key, method: 'GET' });
    await send({ key, method: 'PUT', url: '/things/1', body: { n: 1 } });
    await send({ key, method: 'PUT', url: '/things/1', body: { n: 1 } });
    expect(runs).toBe(6);
    expect(await keyRows(key)).toEqual([]);
  });

  it('reads a streamed body of unknown length, and refuses one over the body limit without taking the key', async () => {
    const key = freshKey();
    const streamed = () => Readable.from([Buffer.from('{"parts":'), Buffer.from('[1,2,3]}')]);
    const first = await send({ key, payload: streamed(), body: {} });
    expect(first.json()).toEqual({ made: 1, got: { parts: [1, 2, 3] } });
    expect((await send({ key, payload: streamed(), body: {} })).headers['idempotent-replayed']).toBe('true');

    const big = freshKey();
    const tooLarge = Readable.from(Array.from({ length: 80 }, () => Buffer.alloc(1024, 0x20)));
    expect((await send({ key: big, payload: tooLarge, body: {} })).statusCode).toBe(413);
    const declared = await send({ key: big, payload: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), body: {} });
    expect(declared.statusCode).toBe(413);
    expect(await keyRows(big)).toEqual([]);
  });
});
