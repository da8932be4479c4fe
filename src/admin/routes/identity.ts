import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { captureUrl } from '../../identity/capture/url.js';
import type { CaseImage } from '../../identity/operator-case.js';
import * as identitySchemas from '../../identity/schemas.js';
import { notFound } from '../../plugins/envelope-errors.js';
import type { OperatorRouteOptions } from '../services.js';
import * as s from '../schemas.js';
import { delivery } from './webhooks.js';

const caseParams = z.object({ id: z.string().describe('Profile id'), verificationId: z.string().describe('Verification id (UUID)') });

const verificationDetail = z.object({
  verification: identitySchemas.verification,
  timeline: z
    .array(
      z.object({
        seq: z.number().int(),
        type: z.string(),
        at: z.string(),
        actor: z.string().describe('`operator`, `device`, `pipeline`, `backend:<key id>` or `reviewer:<key id>`'),
        actor_name: z.string().nullable().describe("The key's name, when the actor is a named key"),
        data: z.record(z.string(), z.unknown()).describe('What the step recorded (never personal data)'),
      }),
    )
    .describe('The audit chain, oldest first'),
  reviews: z
    .array(
      z.object({
        reviewer: z.string(),
        reviewer_name: z.string().nullable(),
        decision: z.enum(['approve', 'decline']),
        decline_reasons: z.array(z.string()),
        note: z.string().nullable().describe('The reviewer’s note; null once erased'),
        decided_at: z.string(),
      }),
    )
    .describe('Every reviewer decision, oldest first'),
  images: z.object({
    document: z.string().nullable(),
    document_back: z.string().nullable(),
    steps: z.array(
      z.object({
        step: z.number().int(),
        instruction: z.string(),
        pose: z.string().nullable(),
        image_url: z.string().nullable(),
        source: identitySchemas.frameSource,
      }),
    ),
  }),
  can_issue_capture_link: z.boolean().describe('Capture is still open, so a new capture link can be issued'),
  can_restart_capture: z
    .boolean()
    .describe(
      'Declined because its images could not be used (`image_too_small`, `no_face_document`, `no_face_selfie`): POST …/capture-restart starts capture again with a new link',
    ),
  deliveries: z.array(delivery).describe('The decision webhook’s deliveries, oldest first'),
});

/** Operator tools of the identity service: starting a verification from the console, fault injection for the decision pipeline. */
export const identityAdminRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const { operator: identity, operatorCases: cases } = services.identity;
  const { profiles } = services;

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

  const casePath = '/profiles/:id/verifications/:verificationId';

  app.get(
    casePath,
    {
      schema: {
        operationId: 'getProfileVerification',
        summary: 'One verification of a profile, in detail',
        tags: ['operator'],
        description:
          'The verification with its timeline (the audit chain), every reviewer decision with its note, links to its images (each fetched separately, and audited), ' +
          'whether a new capture link can be issued, and its decision webhook’s deliveries. A verification of another profile answers 404.',
        params: caseParams,
        response: { 200: s.envelope(verificationDetail), 401: s.errorEnvelope, 404: s.errorEnvelope },
      },
    },
    async (req) => {
      const { id, verificationId } = req.params;
      const base = `/admin/v1/profiles/${id}/verifications/${verificationId}/images`;
      return { success: true as const, data: await cases.detail(id, verificationId, base) };
    },
  );

  app.post(
    `${casePath}/capture-link`,
    {
      schema: {
        operationId: 'issueCaptureLink',
        summary: 'Issue a new capture link for a verification',
        tags: ['operator'],
        description:
          'A fresh handoff token (30 minutes) and its `capture_url`, for the person to open on this computer or a phone; every earlier link stops working. ' +
          'The token is in this answer only. 409 once capture is complete or the verification was erased; another profile’s verification answers 404.',
        params: caseParams,
        response: {
          200: s.envelope(identitySchemas.handoff),
          401: s.errorEnvelope,
          404: s.errorEnvelope,
          409: s.errorEnvelope,
        },
      },
    },
    async (req) => {
      const handoff = await cases.reissueHandoff(req.params.id, req.params.verificationId);
      return { success: true as const, data: { ...handoff, capture_url: captureUrl(app.config.PUBLIC_URL, handoff.handoff_token) } };
    },
  );

  app.post(
    `${casePath}/capture-restart`,
    {
      schema: {
        operationId: 'restartCapture',
        summary: 'Start capture again for a verification declined for image quality',
        tags: ['operator'],
        description:
          'For a verification declined because its images could not be used (`image_too_small`, `no_face_document`, `no_face_selfie`): its stored images and frames are deleted, ' +
          'its decision, zone, challenge and signals cleared, it goes back to `awaiting_capture` at stage `document`, every earlier link stops working, and the answer holds a fresh handoff token (30 minutes) and its `capture_url`, in this answer only. ' +
          'Audit `capture.restarted` `{previous_status, previous_reason}` by `operator`. The next decision sends its webhook as any decision does. ' +
          '409 for any other status or reason, or once erased; another profile’s verification answers 404.',
        params: caseParams,
        response: {
          200: s.envelope(identitySchemas.handoff),
          401: s.errorEnvelope,
          404: s.errorEnvelope,
          409: s.errorEnvelope,
        },
      },
    },
    async (req) => {
      const handoff = await cases.restartCapture(req.params.id, req.params.verificationId);
      return { success: true as const, data: { ...handoff, capture_url: captureUrl(app.config.PUBLIC_URL, handoff.handoff_token) } };
    },
  );

  const binaryResponse = {
    status: 200,
    description: 'The stored image bytes, metadata stripped at upload',
    mediaTypes: ['image/jpeg', 'image/png', 'image/webp'],
  };
  const imageResponse = {
    200: z.unknown().describe('The stored image bytes (image/jpeg, image/png or image/webp)'),
    401: s.errorEnvelope,
    404: s.errorEnvelope,
    410: s.errorEnvelope,
  };
  const audited =
    'Never cached (`Cache-Control: no-store`); every view appends `operator.image_viewed` to the verification’s audit chain with `operator` as actor, as a reviewer’s views are recorded. ' +
    'Another profile’s verification or a missing image answers 404; erased 410.';
  const sendImage = async (reply: FastifyReply, id: string, verificationId: string, which: CaseImage) => {
    const image = await cases.image(id, verificationId, which);
    return reply.type(image.contentType).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').send(image.bytes);
  };
  for (const [which, operationId, summary] of [
    ['document', 'getVerificationDocumentImage', 'The document image of a verification'],
    ['document-back', 'getVerificationDocumentBackImage', 'The back of the document of a verification'],
  ] as const) {
    app.get(
      `${casePath}/images/${which}`,
      {
        schema: {
          operationId,
          summary,
          tags: ['operator'],
          description: audited,
          params: caseParams,
          binaryResponse,
          response: imageResponse,
        },
      },
      async (req, reply) => sendImage(reply, req.params.id, req.params.verificationId, which),
    );
  }
  app.get(
    `${casePath}/images/selfie/:step`,
    {
      schema: {
        operationId: 'getVerificationSelfieImage',
        summary: 'One selfie frame of a verification',
        tags: ['operator'],
        description: audited,
        params: caseParams.extend({ step: z.coerce.number().int().min(0).max(99).describe('The challenge step (0-based)') }),
        binaryResponse,
        response: imageResponse,
      },
    },
    async (req, reply) => sendImage(reply, req.params.id, req.params.verificationId, req.params.step),
  );
};
