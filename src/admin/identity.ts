import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { captureUrl } from '../identity/capture/url.js';
import { createIdentityOperatorService } from '../identity/service.js';
import { notFound } from '../plugins/envelope-errors.js';
import { createProfileService } from '../profiles/service.js';
import * as s from './schemas.js';

/** Operator tools of the identity service: starting a verification from the console, fault injection for the decision pipeline. */
export const identityAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const identity = createIdentityOperatorService({ db: app.db, clock: app.clock, webhooks: app.webhooks });
  const profiles = createProfileService({ db: app.db, clock: app.clock });

  app.post(
    '/profiles/:id/verifications',
    {
      schema: {
        operationId: 'startVerification',
        summary: 'Start an identity verification for a profile',
        tags: ['operator'],
        description:
          'Starts a verification as a partner backend would (POST /v1/verifications), for a person the operator sends to `capture_url` (this computer or a phone). ' +
          'The handoff token is in the answer once, valid 30 minutes. `webhook_url` is optional here: without it the decision is only read (GET /admin/v1/profiles/{id}/verifications, the reviewer console).',
        params: s.idParams,
        body: s.verificationStart,
        response: {
          201: s.envelope(s.startedVerification),
          400: s.errorEnvelope,
          401: s.errorEnvelope,
          404: s.errorEnvelope,
          422: s.errorEnvelope,
        },
      },
    },
    async (req, reply) => {
      await profiles.requireProfile(req.params.id);
      const started = await identity.start(req.params.id, req.body);
      return reply
        .status(201)
        .send({ success: true, data: { ...started, capture_url: captureUrl(app.config.PUBLIC_URL, started.handoff_token) } });
    },
  );

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
