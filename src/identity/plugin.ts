import multipart from '@fastify/multipart';
import type { errorResponseBuilderContext } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../auth/api-keys.js';
import { useKeyAuth } from '../auth/key-auth.js';
import { identityIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { liveSigningKey } from '../signing-keys/service.js';
import { useRateLimit } from '../plugins/rate-limit.js';
import { PIPELINE_QUEUE } from './capture/service.js';
import type { IdentityServices } from './assembly.js';
import { withoutHandoffAtRest } from './idempotent-answers.js';
import { identityErrors as errors, useIdentityErrors } from './errors.js';
import { pipelineHandler } from './pipeline/run.js';
import { attestationRoutes } from './routes/attestations.js';
import { captureRoutes } from './routes/capture.js';
import { reviewRoutes } from './routes/review.js';
import { verificationRoutes } from './routes/verifications.js';
import type { IdentityDeps } from './deps.js';
import { MAX_UPLOAD_BYTES } from './upload-limits.js';
import { registerIdentityWebhooks } from './webhooks.js';
import type { IdentityRole } from '../db/vocabulary.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified identity key of the request (set by the auth hook for routes with an `identityRole`). */
    identityPrincipal: KeyPrincipal | null;
  }
  interface FastifyContextConfig {
    /** The key role an identity route requires; absent on the capture routes (handoff token) and the public ones. */
    identityRole?: IdentityRole;
  }
}

/**
 * Per client IP and counted before authentication, so a flood of bad keys or guessed handoff
 * tokens is limited too; 429 as `{detail}`.
 */
const perClientIp = (max: number, nameSpace: string) =>
  ({
    max,
    nameSpace,
    callerOf: (req: FastifyRequest) => req.ip,
    refusal: (ctx: errorResponseBuilderContext) => errors.rateLimited(ctx.max, Math.ceil(ctx.ttl / 1000)),
    counts: 'before-auth',
  }) as const;

/**
 * The auth hook of backend and reviewer routes: 429 while the client IP is braked for failed
 * authentications, 401 for a missing, malformed or unknown key (counted), 403 for a key of the
 * other role. Added after the rate limiter, so it runs after it.
 */
function requireRoleKeys(scope: FastifyInstance): void {
  useKeyAuth(scope, {
    service: 'identity',
    principal: 'identityPrincipal',
    keyed: (req) => Boolean(req.routeOptions.config?.identityRole),
    braked: (sec) => errors.authBraked(sec),
    unauthenticated: (token) => (token ? errors.apiKeyInvalid() : errors.apiKeyMissing()),
    forbidden: (principal, req) => {
      const role = req.routeOptions.config.identityRole!;
      return principal.role === role ? undefined : errors.wrongRole(role);
    },
  });
}

/**
 * The identity work of a process that runs jobs: the decision webhook's signer (the API needs it
 * too, to queue a decision webhook) and the pipeline's handler. A worker (ROLE=worker) registers
 * this alone, without the routes; an API-only queue ignores the handler (src/jobs/enqueue-only.ts).
 */
export async function identityWork(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  registerIdentityWebhooks(
    deps.webhooks,
    await liveSigningKey(deps.db, deps.clock, deps.dataKeys, 'identity-webhook'),
    app.config.WEBHOOK_TIMEOUT_MS,
  );
  const { config } = app;
  const faces = app.faces
    ? {
        pool: app.faces,
        thresholds: {
          matchLow: config.FACE_MATCH_LOW,
          matchHigh: config.FACE_MATCH_HIGH,
          yawTurn: config.FACE_YAW_TURN,
          yawFront: config.FACE_YAW_FRONT,
        },
      }
    : undefined;
  app.jobs.handle(
    PIPELINE_QUEUE,
    pipelineHandler({ ...deps, logger: app.log, faces, documents: app.documents ?? undefined, meter: app.meter }),
    { lane: 'identity' },
  );
}

/**
 * The Identity Verification Service, registered at /v1. Its error format (`{detail}`), its
 * not-found answer, multipart parsing, auth and rate limits live in this scope only, so the
 * governance routes that share the /v1 prefix keep their own.
 */
export const identityApi: FastifyPluginAsync<{ identity: IdentityServices }> = async (app, { identity }) => {
  const { verifications, capture, attestations, cases, claims } = identity;
  useIdentityErrors(app);
  app.decorateRequest('identityPrincipal', null);
  await app.register(multipart, {
    // One byte over the limit is enough to know; the inspector answers 413 itself.
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 2, fields: 10, fieldSize: 4096, parts: 12 },
    throwFileSizeLimit: false,
  });
  useIdempotency(app, withoutHandoffAtRest(identityIdempotency, verifications, app.config.PUBLIC_URL));

  await app.register(async (scope) => {
    await useRateLimit(scope, perClientIp(app.config.CAPTURE_RATE_LIMIT_PER_MINUTE, 'identity-capture-rl:'));
    await scope.register(captureRoutes, { capture });
  });
  await app.register(async (scope) => {
    await useRateLimit(scope, perClientIp(app.config.IDENTITY_RATE_LIMIT_PER_MINUTE, 'identity-api-rl:'));
    requireRoleKeys(scope);
    await scope.register(verificationRoutes, { verifications });
    await scope.register(reviewRoutes, { verifications, cases, claims });
    await scope.register(attestationRoutes, { attestations });
  });
};
