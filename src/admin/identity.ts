import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createIdentityOperatorService } from '../identity/service.js';
import { notFound } from '../plugins/envelope-errors.js';
import * as s from './schemas.js';

/** Operator tools of the identity service: fault injection for the decision pipeline. */
export const identityAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const identity = createIdentityOperatorService({ db: app.db, clock: app.clock });

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
      if (!(await identity.failNextRun(id))) throw notFound('Verification');
      return { success: true as const, data: { verification_id: id, fail_next_run: true as const } };
    },
  );
};
