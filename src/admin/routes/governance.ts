import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logKeysResponse } from '../../governance/schemas.js';
import { createGovernanceOperatorService, listLogKeys } from '../../governance/service.js';
import { createProfileService } from '../../profiles/service.js';
import * as s from '../schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope, 409: s.errorEnvelope };
const tags = ['operator'];

/** Operator rows of the governance service: agents with mandate and baseline, delegations and their revocation. */
export const governanceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const profiles = createProfileService({ db: app.db, clock: app.clock });
  const governance = createGovernanceOperatorService({ db: app.db, clock: app.clock, profiles });

  app.post(
    '/governance/agents',
    {
      schema: {
        operationId: 'createGovernanceAgent',
        summary: 'Register an agent with its mandate (action patterns) and approved behavioural baseline',
        tags,
        body: s.agentCreate,
        response: { 201: s.envelope(s.agent), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true, data: await governance.registerAgent(req.body) }),
  );

  app.post(
    '/governance/delegations',
    {
      schema: {
        operationId: 'createGovernanceDelegation',
        summary: 'Delegate authority to an agent until expiresAt',
        tags,
        body: s.delegationCreate,
        response: { 201: s.envelope(s.delegation), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true, data: await governance.delegate(req.body) }),
  );

  app.get(
    '/governance/log-keys',
    {
      schema: {
        operationId: 'listTransparencyLogKeys',
        summary: "Every profile's transparency-log keys, as GET /v1/governance/log/keys publishes them",
        description:
          'The origin, note verifier key and ML-DSA-65 public key of every profile’s log: hand them to an auditor, who pins them instead of trusting the keys inside the checkpoint answers it checks.',
        tags,
        response: { 200: s.envelope(logKeysResponse), ...errors },
      },
    },
    async () => ({ success: true as const, data: await listLogKeys(app.db, app.config.PUBLIC_URL) }),
  );

  app.post(
    '/governance/delegations/:id/revoke',
    {
      schema: {
        operationId: 'revokeGovernanceDelegation',
        summary: 'Revoke a delegation (idempotent: the first revocation time stays)',
        tags,
        params: s.idParams,
        response: { 200: s.envelope(s.delegation), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await governance.revokeDelegation(req.params.id) }),
  );
};
