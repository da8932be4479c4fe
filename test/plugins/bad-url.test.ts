import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';

/**
 * Fastify answers an undecodable URL or an over-long path parameter before routing; the answer
 * must still be in the format of the API whose path it is, with the usual headers.
 */
describe('URLs Fastify cannot route', () => {
  const { ctx } = useTestApp();

  const get = (url: string) => ctx.app.inject({ method: 'GET', url });

  it("an invalid percent-encoding is a 400 in each API's own format", async () => {
    const envelope = { success: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/URL is not valid/) } };
    for (const url of ['/api/v1/events/%C0%AE', '/admin/v1/profiles/%C0%AE']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(envelope);
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const identity = await get('/v1/verifications/%C0%AE');
    expect(identity.statusCode).toBe(400);
    expect(identity.json()).toEqual({ detail: expect.stringMatching(/URL is not valid/) });
    const governance = await get('/v1/carrier/%C0%AE');
    expect(governance.statusCode).toBe(400);
    expect(governance.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/URL is not valid/) } });
  });

  it("a path parameter over the length limit is a 414 in the API's format", async () => {
    const res = await get(`/v1/verifications/${'x'.repeat(3000)}`);
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ detail: 'A path parameter is too long' });
    const operator = await get(`/admin/v1/profiles/${'x'.repeat(3000)}`);
    expect(operator.statusCode).toBe(414);
    expect(operator.json()).toEqual({ success: false, error: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' } });
    const governance = await get(`/v1/carrier/${'x'.repeat(3000)}`);
    expect(governance.statusCode).toBe(414);
    expect(governance.json()).toEqual({ error: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' } });
  });

  it("outside the APIs keeps Fastify's own 400", async () => {
    const res = await get('/health/%C0%AE');
    expect(res.statusCode).toBe(400);
  });
});
