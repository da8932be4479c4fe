import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { useKeyAuth } from '../auth/key-auth.js';
import { governanceIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { liveMlDsaKey } from '../signing-keys/ml-dsa.js';
import { liveSigningKey } from '../signing-keys/service.js';
import { rateLimitOptions } from '../plugins/rate-limit.js';
import { createExecutionBoundary } from './boundary.js';
import { StrictJsonError, parseStrictJson } from './strict-json.js';
import { governanceErrors as errors, useGovernanceErrors } from './errors.js';
import { carrierRoutes } from './routes/carrier.js';
import { challengeRoutes } from './routes/challenge.js';
import { cryptoRoutes } from './routes/crypto.js';
import { governanceRoutes } from './routes/governance.js';
import { proofRoutes } from './routes/proof.js';
import { createGovernanceService } from './service.js';
import { createTransparencyLog } from './transparency-log.js';

/** The governance API's path scopes and their routes; the rest of /v1 is identity's. */
const PATH_SCOPES = [
  ['/v1/governance', governanceRoutes],
  ['/v1/proof', proofRoutes],
  ['/v1/crypto', cryptoRoutes],
  ['/v1/challenge', challengeRoutes],
  ['/v1/carrier', carrierRoutes],
] as const;

/** The path prefixes the governance API serves (for answers given before routing, src/app.ts). */
export const GOVERNANCE_PREFIXES = PATH_SCOPES.map(([prefix]) => `${prefix}/`);

/**
 * The Governance Evidence Service: five encapsulated scopes (/v1/governance, /v1/proof,
 * /v1/crypto, /v1/challenge, /v1/carrier) sharing one strict JSON parser, one error format,
 * one auth hook and one rate limit. It never touches the '/v1' scope identity owns.
 */
export const governanceApi: FastifyPluginAsync = async (app) => {
  const seed = app.config.GOVERNANCE_SIGNING_KEY ? Buffer.from(app.config.GOVERNANCE_SIGNING_KEY, 'base64') : undefined;
  const signingKey = await liveSigningKey(app.db, app.clock, app.dataKeys, 'governance', seed);
  const service = createGovernanceService({ db: app.db, clock: app.clock, signingKey, meter: app.meter });
  const boundary = createExecutionBoundary(service);
  // The log's checkpoints are signed with keys of their own purpose, never the records' key.
  const log = createTransparencyLog({
    db: app.db,
    publicUrl: app.config.PUBLIC_URL,
    checkpointKey: await liveSigningKey(app.db, app.clock, app.dataKeys, 'governance-checkpoint'),
    mlDsaKey: await liveMlDsaKey(app.db, app.clock, app.dataKeys, 'governance-checkpoint-ml-dsa'),
  });

  useGovernanceErrors(app);
  useIdempotency(app, governanceIdempotency);
  // Signed values must read the same in every parser: refuse duplicate keys, lone surrogates,
  // unsafe integers and non-finite numbers on the raw text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseStrictJson(body as string));
    } catch (err) {
      const message =
        err instanceof StrictJsonError ? `The JSON body cannot be canonicalized safely: ${err.message}` : 'The body is not valid JSON';
      done(errors.unreadableBody(message), undefined);
    }
  });

  app.decorateRequest('governancePrincipal', null);
  // Only routes with a governanceScope take a key; the scope is checked with it, before the rate limit.
  useKeyAuth(app, {
    service: 'governance',
    principal: 'governancePrincipal',
    keyed: (req) => Boolean(req.routeOptions.config?.governanceScope),
    braked: () => errors.rateLimited(),
    unauthenticated: () => errors.unauthorized(),
    forbidden: (principal, req) => {
      const required = req.routeOptions.config.governanceScope!;
      return principal.scopes.includes(required) ? undefined : errors.insufficientScope(required);
    },
  });

  await app.register(
    rateLimit,
    rateLimitOptions(app, {
      max: app.config.GOVERNANCE_RATE_LIMIT_PER_MINUTE,
      nameSpace: 'governance-rate-limit-',
      keyGenerator: (req) => (req.governancePrincipal ? `key:${req.governancePrincipal.keyHash}` : `ip:${req.ip}`),
      errorResponseBuilder: () => errors.rateLimited(),
    }),
  );

  for (const [prefix, routes] of PATH_SCOPES) await app.register(routes, { prefix, service, boundary, log });
};
