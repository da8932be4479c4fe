import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { governanceErrorFormat } from '../../src/governance/errors.js';
import { IdentityError, identityErrorFormat } from '../../src/identity/errors.js';
import { envelopeFormat } from '../../src/plugins/envelope-errors.js';
import { ApiError, useErrorFormat, type ErrorFormat } from '../../src/plugins/error-handler.js';

/** One scope per format, each with routes that fail in every way an API's routes can. */
async function appWith(formats: Record<string, ErrorFormat>): Promise<{ app: FastifyInstance; logged: string[] }> {
  const logged: string[] = [];
  const app = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
  });
  app.setValidatorCompiler(validatorCompiler);
  for (const [prefix, format] of Object.entries(formats)) {
    await app.register(
      async (scope) => {
        useErrorFormat(scope, format);
        scope.post('/validated', { schema: { body: z.strictObject({ name: z.string(), size: z.number() }) } }, async () => 'ok');
        scope.get('/coded', async () => {
          throw new ApiError(409, 'SOLD_OUT', 'Nothing left', [{ path: 'body.items', message: 'too many' }]);
        });
        scope.get('/identity-error', async () => {
          throw new IdentityError(409, 'Already captured');
        });
        scope.get('/status/:status', async (req) => {
          throw Object.assign(new Error(`framework says ${(req.params as { status: string }).status}`), {
            statusCode: Number((req.params as { status: string }).status),
          });
        });
        scope.get('/multipart-limit', async () => {
          throw Object.assign(new Error('reach files limit'), { code: 'FST_FILES_LIMIT', statusCode: 413 });
        });
        scope.get('/database-down', async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        });
        scope.get('/bug', async () => {
          throw new Error('select secret from keys failed');
        });
      },
      { prefix },
    );
  }
  await app.ready();
  return { app, logged };
}

describe('createErrorHandler: one handler, three formats', () => {
  let app: FastifyInstance;
  let logged: string[];
  beforeAll(async () => {
    ({ app, logged } = await appWith({
      '/envelope': envelopeFormat,
      '/governance': governanceErrorFormat,
      '/identity': identityErrorFormat,
    }));
  });
  afterAll(() => app?.close());

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers a coded error in each format, details only where the format has them', async () => {
    expect(await get('/envelope/coded')).toEqual({
      status: 409,
      body: {
        success: false,
        error: { code: 'SOLD_OUT', message: 'Nothing left', details: [{ path: 'body.items', message: 'too many' }] },
      },
    });
    expect(await get('/governance/coded')).toEqual({ status: 409, body: { error: { code: 'SOLD_OUT', message: 'Nothing left' } } });
    expect(await get('/identity/coded')).toEqual({ status: 409, body: { detail: 'Nothing left' } });
    expect(await get('/identity/identity-error')).toEqual({ status: 409, body: { detail: 'Already captured' } });
  });

  it('lists every refused field (envelope, 400) or names the first one (governance 400, identity 422)', async () => {
    const post = (url: string) => app.inject({ method: 'POST', url, payload: { name: 1 } });
    const envelope = await post('/envelope/validated');
    expect(envelope.statusCode).toBe(400);
    expect(envelope.json()).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'The request is not valid',
        details: [
          { path: 'body.name', message: expect.any(String) },
          { path: 'body.size', message: expect.any(String) },
        ],
      },
    });
    const governance = await post('/governance/validated');
    expect(governance.statusCode).toBe(400);
    expect(governance.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.name: /) } });
    const identity = await post('/identity/validated');
    expect(identity.statusCode).toBe(422);
    expect(identity.json()).toEqual({ detail: expect.stringMatching(/^body\.name: /) });
  });

  it('gives a framework 4xx the code of its status, not VALIDATION_ERROR for all', async () => {
    const codes: [number, string][] = [
      [400, 'VALIDATION_ERROR'],
      [404, 'NOT_FOUND'],
      [405, 'METHOD_NOT_ALLOWED'],
      [406, 'NOT_ACCEPTABLE'],
      [408, 'REQUEST_TIMEOUT'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [414, 'URI_TOO_LONG'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [431, 'REQUEST_HEADER_FIELDS_TOO_LARGE'],
      [418, 'BAD_REQUEST'],
    ];
    for (const [status, code] of codes) {
      const message = `framework says ${status}`;
      expect(await get(`/envelope/status/${status}`), String(status)).toEqual({
        status,
        body: { success: false, error: { code, message } },
      });
      expect(await get(`/governance/status/${status}`), String(status)).toEqual({ status, body: { error: { code, message } } });
      expect(await get(`/identity/status/${status}`), String(status)).toEqual({ status, body: { detail: message } });
    }
  });

  it('answers a 429 with RATE_LIMITED, in the message each API gives', async () => {
    expect(await get('/envelope/status/429')).toEqual({
      status: 429,
      body: { success: false, error: { code: 'RATE_LIMITED', message: 'framework says 429' } },
    });
    expect(await get('/governance/status/429')).toEqual({
      status: 429,
      body: { error: { code: 'RATE_LIMITED', message: 'Too many requests; retry later' } },
    });
    expect(await get('/identity/status/429')).toEqual({ status: 429, body: { detail: 'framework says 429' } });
  });

  it("maps the multipart plugin's errors by code in identity only", async () => {
    expect(await get('/identity/multipart-limit')).toEqual({ status: 422, body: { detail: 'Send exactly one file, in the field "file"' } });
    expect(await get('/envelope/multipart-limit')).toEqual({
      status: 413,
      body: { success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: 'reach files limit' } },
    });
  });

  it('answers an unreachable database with 503 and a bug with 500, never showing their messages', async () => {
    expect(await get('/governance/database-down')).toEqual({
      status: 503,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable' } },
    });
    expect(await get('/envelope/bug')).toEqual({
      status: 500,
      body: { success: false, error: { code: 'INTERNAL', message: 'Internal server error' } },
    });
    expect(await get('/identity/bug')).toEqual({ status: 500, body: { detail: 'Internal server error' } });
    expect(logged.some((line) => line.includes('select secret from keys failed') && line.includes('unhandled error'))).toBe(true);
    expect(logged.some((line) => line.includes('database unavailable'))).toBe(true);
  });

  it("answers an unknown path with each format's 404", async () => {
    expect(await get('/envelope/nope?x=1')).toEqual({
      status: 404,
      body: { success: false, error: { code: 'NOT_FOUND', message: 'Route GET /envelope/nope not found' } },
    });
    expect(await get('/governance/nope')).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Route GET /governance/nope not found' } },
    });
    expect(await get('/identity/nope')).toEqual({ status: 404, body: { detail: 'Route GET /identity/nope not found' } });
  });
});
