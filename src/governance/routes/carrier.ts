import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import { useGovernanceNotFound } from '../errors.js';
import { profileOf } from '../principal.js';
import * as s from '../schemas.js';
import { tags, type RouteDeps } from './common.js';

/** /v1/carrier: an execution's sealed record and its presentations at the boundary. */
export const carrierRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service }) => {
  useGovernanceNotFound(app);

  app.get(
    '/:execution_id',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'getCarrier',
        summary: 'The carrier of an execution',
        tags,
        description: 'The carrier of an execution: its sealed record and every presentation at the execution boundary.',
        security: securityOf.governance,
        params: s.carrierParams,
        response: { 200: s.carrierResponse, ...s.errors },
      },
    },
    async (req) => service.carrier(profileOf(req), req.params.execution_id),
  );
};
