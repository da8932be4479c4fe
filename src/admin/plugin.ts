import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { bearerToken } from '../auth/api-keys.js';
import { operatorIdempotency } from './idempotency.js';
import { useIdempotency } from '../idempotency/hooks.js';
import { safeEqual } from '../lib/crypto.js';
import { envelopeFormat, useEnvelopeErrors } from '../plugins/envelope-errors.js';
import { answerOf, useErrorFormat } from '../plugins/error-handler.js';
import { refuseBraked } from '../plugins/auth-brake.js';
import { useRateLimit } from '../plugins/rate-limit.js';
import { operatorErrors } from './errors.js';
import type { OperatorRouteOptions } from './services.js';
import { documentScopeSecurity, securityOf } from '../plugins/openapi-security.js';
import { governanceAdminRoutes } from './routes/governance.js';
import { identityAdminRoutes } from './routes/identity.js';
import { overviewRoutes } from './routes/overview.js';
import { activityRoutes } from './routes/activity.js';
import { profileRoutes } from './routes/profiles.js';
import { webhookRoutes } from './routes/webhooks.js';
import { ticketingOperatorRoutes } from './routes/ticketing.js';

/** Without ADMIN_TOKEN every path under /admin/v1 answers 404, saying why and how to turn it on. */
function disabledOperatorApi(app: FastifyInstance): void {
  const disabled = answerOf(operatorErrors.disabled());
  // The shared error handler in the envelope, with every error of this scope answered so: a body
  // that fails to parse on the way to a route that does not exist gets the same answer.
  useErrorFormat(app, { ...envelopeFormat, ownError: () => disabled }, { notFound: false });
  app.setNotFoundHandler(async () => {
    throw operatorErrors.disabled();
  });
}

/**
 * The operator API (/admin/v1), standing in for the account dashboard. Without ADMIN_TOKEN
 * it does not exist: every path under it answers 404.
 */
export const adminApi: FastifyPluginAsync<OperatorRouteOptions> = async (app, { services }) => {
  const token = app.config.ADMIN_TOKEN;
  if (!token) return disabledOperatorApi(app);
  useEnvelopeErrors(app);
  // The onRequest hook below guards every route of this scope with the operator token.
  documentScopeSecurity(app, securityOf.operator);

  // Per client IP and before the token is checked, so a flood of guesses is limited too.
  await useRateLimit(app, {
    max: app.config.ADMIN_RATE_LIMIT_PER_MINUTE,
    nameSpace: 'admin-rate-limit:',
    callerOf: (req) => req.ip,
    refusal: (ctx) => operatorErrors.rateLimited(ctx.after),
    counts: 'before-auth',
  });
  app.addHook('onRequest', async (req, reply) => {
    await refuseBraked(app.authBrake, req, reply, (sec) => operatorErrors.rateLimited(`${sec} seconds`));
    const given = bearerToken(req.headers.authorization);
    if (!given || !safeEqual(given, token)) {
      await app.authBrake.failed(req.ip);
      throw operatorErrors.unauthorized();
    }
  });

  useIdempotency(app, operatorIdempotency);
  await app.register(profileRoutes, { services });
  await app.register(governanceAdminRoutes, { services });
  await app.register(identityAdminRoutes, { services });
  await app.register(webhookRoutes);
  await app.register(ticketingOperatorRoutes, { services });
  await app.register(overviewRoutes, { services });
  await app.register(activityRoutes, { services });
};
