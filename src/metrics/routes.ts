import type { FastifyInstance } from 'fastify';
import { bearerToken } from '../auth/api-keys.js';
import { safeEqual } from '../lib/crypto.js';
import type { Metrics } from './registry.js';

const METRICS_PATH = '/metrics';

/**
 * GET /metrics in Prometheus' text format, read with `Authorization: Bearer <METRICS_TOKEN>`
 * (docs/operations.md, "Metrics"; a wrong or missing token counts as a failed authentication), and the timing of every other request. Called on the root instance before
 * the APIs register, so the hook sees every route of every scope. The scrape itself is not
 * counted: Prometheus polling would otherwise make up a share of the traffic it reports.
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url;
    if (route !== METRICS_PATH) metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // Not in the OpenAPI document: it is for Prometheus, not for partners, and its format is Prometheus'.
  app.get(METRICS_PATH, { schema: { hide: true } }, async (req, reply) => {
    // The token is a credential like any key: guessing it counts toward the per-IP brake that every
    // API shares (docs/security.md, "Security"), asked first so a braked address learns nothing, not even a right guess.
    const braked = await app.authBrake.secondsBraked(req.ip);
    if (braked > 0) {
      return reply
        .status(429)
        .header('retry-after', String(braked))
        .type('text/plain; charset=utf-8')
        .send(`too many failed authentications from this address; retry in ${braked} s\n`);
    }
    const given = bearerToken(req.headers.authorization);
    if (!given || !safeEqual(given, token)) {
      await app.authBrake.failed(req.ip);
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('unauthorized\n');
    }
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
