import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import { useGovernanceNotFound } from '../errors.js';
import { profileOf } from '../principal.js';
import * as s from '../schemas.js';
import { proofBoundaryStatement } from '../statement.js';
import { rateNote, tags, type RouteDeps } from './common.js';

/** /v1/proof: the proof-boundary statement and the proof scenario. */
export const proofRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service }) => {
  useGovernanceNotFound(app);

  app.get(
    '/boundaries',
    {
      schema: {
        operationId: 'getProofBoundaries',
        summary: 'The proof-boundary statement',
        tags,
        security: securityOf.none,
        description: 'The proof-boundary statement (public).',
        response: { 200: s.statementResponse, ...s.errors },
      },
    },
    async () => proofBoundaryStatement(service.signingKey.publicKey.toString('base64'), service.clock.now()),
  );

  app.post(
    '/scenario/run',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'runProofScenario',
        summary: 'Run the proof scenario',
        tags,
        description: `Seals a decision of the fixed scenario (reserved agent "proof-scenario-agent", created on demand in the caller's profile). A: every condition good → ALLOW. B: authority_status EXPIRED → DENY. The response is the sealed record plus condition and changed_condition (null for A); record holds the sealed record alone, exactly as signed. ${rateNote}`,
        security: securityOf.governance,
        body: s.scenarioRequest,
        response: { 201: s.scenarioResponse, ...s.errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.runScenario(profileOf(req), req.body.condition)),
  );
};
