import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { identityVerifications } from '../db/schema/identity.js';
import { appendAudit } from '../identity/audit.js';
import { lockVerification } from '../identity/repo.js';
import { isUuid } from '../lib/uuid.js';
import { notFound } from '../plugins/envelope-errors.js';
import * as s from './schemas.js';

/** Operator tools of the identity service: fault injection for the decision pipeline. */
export const identityAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/identity/verifications/:id/fail-next-run',
    {
      schema: {
        operationId: 'failNextPipelineRun',
        summary: 'Make the next pipeline run of a verification fail',
        tags: ['operator'],
        description:
          'The next pipeline run of this verification throws: it moves to manual_review with the audit event verification.pipeline_error. Stored in the database, consumed by that run.',
        params: s.idParams,
        response: {
          200: s.envelope(z.object({ verification_id: z.string(), fail_next_run: z.literal(true) })),
          401: s.errorEnvelope,
          404: s.errorEnvelope,
        },
      },
    },
    async (req) => {
      const { id } = req.params;
      if (!isUuid(id)) throw notFound('Verification');
      const found = await app.db.transaction(async (tx) => {
        const v = await lockVerification(tx, id);
        if (!v) return false;
        await tx.update(identityVerifications).set({ failNextRun: true }).where(eq(identityVerifications.id, id));
        await appendAudit(tx, app.clock, { verificationId: id, type: 'operator.fault_injected', actor: 'operator' });
        return true;
      });
      if (!found) throw notFound('Verification');
      return { success: true as const, data: { verification_id: id, fail_next_run: true as const } };
    },
  );
};
