import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profiles } from '../db/schema/core.js';
import { governanceErrors } from '../governance/errors.js';
import * as repo from '../governance/repo.js';
import { profileErrors } from '../profiles/errors.js';
import { SCENARIO_AGENT_ID } from '../governance/service.js';
import { isUuid } from '../lib/uuid.js';
import { toIso } from '../lib/time.js';
import * as s from './schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope, 409: s.errorEnvelope };
const tags = ['operator'];

const agentCreate = z.strictObject({
  profileId: z.uuid(),
  agentId: z.string().trim().min(1).max(200),
  mandate: z.array(z.string().trim().min(1).max(200)).max(100),
  baseline: z.strictObject({ fingerprint: z.string().min(1).max(200), maxDrift: z.number().min(0).max(1e9) }),
});
export const agentView = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  agentId: z.string(),
  mandate: z.array(z.string()),
  baseline: z.object({ fingerprint: z.string(), maxDrift: z.number() }),
  createdAt: z.string(),
});
const delegationCreate = z.strictObject({
  profileId: z.uuid(),
  agentId: z.string().trim().min(1).max(200),
  grantedBy: z.string().trim().min(1).max(200),
  expiresAt: z.iso.datetime({ offset: true }),
});
export const delegationView = z.object({
  id: z.uuid(),
  profileId: z.uuid(),
  agentId: z.string(),
  grantedBy: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});

function delegationOut(row: repo.DelegationRow) {
  return {
    id: row.id,
    profileId: row.profileId,
    agentId: row.agentId,
    grantedBy: row.grantedBy,
    expiresAt: toIso(row.expiresAt),
    revokedAt: row.revokedAt ? toIso(row.revokedAt) : null,
    createdAt: toIso(row.createdAt),
  };
}

/** Operator rows of the governance service: agents with mandate and baseline, delegations and their revocation. */
export const governanceAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock } = app;

  async function requireProfile(id: string) {
    const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, id));
    if (!row) throw profileErrors.profileNotFound();
  }

  app.post(
    '/governance/agents',
    {
      schema: {
        operationId: 'createGovernanceAgent',
        summary: 'Register an agent with its mandate (action patterns) and approved behavioural baseline',
        tags,
        body: agentCreate,
        response: { 201: s.envelope(agentView), ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body;
      if (body.agentId === SCENARIO_AGENT_ID) throw governanceErrors.agentIdReserved(SCENARIO_AGENT_ID);
      await requireProfile(body.profileId);
      const row = await repo.insertAgent(db, {
        profileId: body.profileId,
        agentId: body.agentId,
        mandate: body.mandate,
        baselineFingerprint: body.baseline.fingerprint,
        baselineMaxDrift: body.baseline.maxDrift,
        createdAt: clock.now(),
      });
      if (!row) throw governanceErrors.agentExists(body.agentId);
      return reply.status(201).send({
        success: true,
        data: {
          id: row.id,
          profileId: row.profileId,
          agentId: row.agentId,
          mandate: row.mandate,
          baseline: { fingerprint: row.baselineFingerprint, maxDrift: row.baselineMaxDrift },
          createdAt: toIso(row.createdAt),
        },
      });
    },
  );

  app.post(
    '/governance/delegations',
    {
      schema: {
        operationId: 'createGovernanceDelegation',
        summary: 'Delegate authority to an agent until expiresAt',
        tags,
        body: delegationCreate,
        response: { 201: s.envelope(delegationView), ...errors },
      },
    },
    async (req, reply) => {
      const body = req.body;
      await requireProfile(body.profileId);
      if (!(await repo.findAgent(db, body.profileId, body.agentId))) throw governanceErrors.agentNotFound();
      const row = await repo.insertDelegation(db, {
        profileId: body.profileId,
        agentId: body.agentId,
        grantedBy: body.grantedBy,
        expiresAt: new Date(body.expiresAt),
        createdAt: clock.now(),
      });
      return reply.status(201).send({ success: true, data: delegationOut(row) });
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
        response: { 200: s.envelope(delegationView), ...errors },
      },
    },
    async (req) => {
      if (!isUuid(req.params.id)) throw governanceErrors.delegationNotFound();
      const row = await repo.revokeDelegation(db, req.params.id, clock.now());
      if (!row) throw governanceErrors.delegationNotFound();
      return { success: true as const, data: delegationOut(row) };
    },
  );
};
