import type { FastifyPluginAsync } from 'fastify';
import { bearerToken } from '../auth/api-keys.js';
import { safeEqual } from '../lib/crypto.js';
import { EnvelopeError, useEnvelopeErrors } from '../plugins/envelope-errors.js';
import { governanceAdminRoutes } from './governance.js';
import { identityAdminRoutes } from './identity.js';
import { overviewRoutes } from './overview-routes.js';
import { profileRoutes } from './profiles.js';
import { webhookRoutes } from './webhooks.js';
import { ticketingOperatorRoutes } from './ticketing.js';

/**
 * The operator API (/admin/v1), standing in for the account dashboard. Without ADMIN_TOKEN
 * it does not exist: every path under it answers 404.
 */
export const adminApi: FastifyPluginAsync = async (app) => {
  useEnvelopeErrors(app);
  const token = app.config.ADMIN_TOKEN;
  if (!token) return;

  app.addHook('onRequest', async (req) => {
    const given = bearerToken(req.headers.authorization);
    if (!given || !safeEqual(given, token)) {
      throw new EnvelopeError(401, 'UNAUTHORIZED', 'A valid operator token is required');
    }
  });

  await app.register(profileRoutes);
  await app.register(governanceAdminRoutes);
  await app.register(identityAdminRoutes);
  await app.register(webhookRoutes);
  await app.register(ticketingOperatorRoutes);
  await app.register(overviewRoutes);
};
