import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inclusionResponse, logKeysResponse, logResponse } from '../../governance/schemas.js';
import { listLogKeys } from '../../governance/service.js';
import type { OperatorRouteOptions } from '../services.js';
import * as s from '../schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope, 409: s.errorEnvelope };
const tags = ['operator'];

/** Operator rows of the governance service: agents with mandate and baseline, delegations and their revocation. */
export const governanceAdminRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const { profiles } = services;
  const { operator: governance, logReads: log } = services.governance;

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

  app.get(
    '/profiles/:id/governance/log',
    {
      schema: {
        operationId: 'getProfileTransparencyLog',
        summary: "A profile's transparency-log checkpoint, as GET /v1/governance/log answers it",
        description:
          'The signed checkpoint of the profile’s log (size, root, note signature, ML-DSA-65 signature), for the operator console’s log page: the operator reads it with ADMIN_TOKEN, without a governance key of the profile.',
        tags,
        params: s.idParams,
        response: { 200: s.envelope(logResponse), ...errors },
      },
    },
    async (req) => {
      await profiles.requireProfile(req.params.id);
      return { success: true as const, data: await log.checkpoint(req.params.id) };
    },
  );

  app.get(
    '/profiles/:id/governance/log/records/:seq',
    {
      schema: {
        operationId: 'getProfileTransparencyLogRecord',
        summary: 'One record of a profile’s log with its inclusion proof',
        description:
          'The record of `seq` as stored and hashed (`leaf`: its RFC 8785 canonical JSON, signature included) and its RFC 9162 inclusion proof in the tree of `tree_size` records, as GET /v1/governance/proofs/inclusion answers it. ' +
          'The console hashes the leaf and folds the proof itself, and compares the root with the checkpoint’s. No record of that seq → 404; `tree_size` below `seq` or beyond the current tree → 422.',
        tags,
        params: z.strictObject({
          id: z.string(),
          seq: z.coerce
            .number()
            .int()
            .min(1)
            .max(2 ** 31 - 1),
        }),
        querystring: z.strictObject({
          tree_size: z.coerce
            .number()
            .int()
            .min(1)
            .max(2 ** 31 - 1)
            .describe('The tree to prove inclusion in: the size of the checkpoint the console shows'),
        }),
        response: {
          200: s.envelope(
            z.object({ leaf: z.string().describe('The record’s canonical JSON: the leaf, byte for byte'), inclusion: inclusionResponse }),
          ),
          ...errors,
          422: s.errorEnvelope,
        },
      },
    },
    async (req) => {
      await profiles.requireProfile(req.params.id);
      return { success: true as const, data: await log.recordInclusion(req.params.id, req.params.seq, req.query.tree_size) };
    },
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
