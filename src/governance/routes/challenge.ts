import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import { useGovernanceNotFound } from '../errors.js';
import { profileOf } from '../principal.js';
import * as s from '../schemas.js';
import { tags, type RouteDeps } from './common.js';

/** /v1/challenge: bypass attempts run through the execution boundary's checks, consuming nothing. */
export const challengeRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { boundary }) => {
  useGovernanceNotFound(app);

  app.post(
    '/bypass',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'challengeBypass',
        summary: 'Try a bypass without consuming anything',
        tags,
        description:
          'Runs a bypass attempt through the same checks as admit without consuming anything. Without `record`, the service builds the attempt from a fresh scenario decision. A record that would be admitted answers rejected=false, code=null.',
        security: securityOf.governance,
        body: s.bypassRequest,
        response: { 200: s.bypassResponse, ...s.errors },
      },
    },
    async (req) => boundary.challenge(profileOf(req), req.body.kind, req.body.record),
  );
};
