import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../schemas.js';
import type { VerificationService } from '../service.js';
import { captureUrl } from '../capture/url.js';

const tags = ['identity: verifications'];
const security = securityOf.identityBackend;

/** The backend's endpoints: create, poll, hand off, erase. */
export const verificationRoutes: FastifyPluginAsyncZod<{ verifications: VerificationService }> = async (app, { verifications }) => {
  const config = { identityRole: 'backend' as const };
  const principal = (req: FastifyRequest) => req.identityPrincipal!;
  const withCaptureUrl = <T extends { handoff_token: string }>(answer: T) => ({
    ...answer,
    capture_url: captureUrl(app.config.PUBLIC_URL, answer.handoff_token),
  });

  app.post(
    '/verifications',
    {
      config,
      schema: {
        operationId: 'createVerification',
        summary: 'Create a verification',
        tags,
        security,
        description:
          'Creates a verification for the calling key’s profile and returns its first handoff token (valid 30 minutes) for the end user’s device, ' +
          'and `capture_url`, the hosted capture page that uses it (send the user there, or build your own capture with the /v1/capture endpoints). ' +
          '`webhook_url` is checked like a registered webhook endpoint: HTTPS, no credentials, a host that resolves, and only public addresses (else 422 saying which rule failed); the decision webhook goes there; its receiver must check that `data.profile_id` is its own profile before trusting a decision. Poll GET /v1/verifications/{id} when no webhook arrives. ' +
          'Optional `return_url`, checked the same way (422 naming `return_url`): the hosted capture page’s last screens (done, link expired, cannot go on) offer a button back to it. ' +
          'With Idempotency-Key, a retry answers the same verification with a freshly issued `handoff_token`, `handoff_expires_at` and `capture_url` (earlier tokens revoked): no live token is ever stored.',
        body: s.createVerificationBody,
        response: { 201: s.createdVerification, ...s.errors(401, 403, 422) },
      },
    },
    async (req, reply) => reply.status(201).send(withCaptureUrl(await verifications.create(principal(req), req.body))),
  );

  app.get(
    '/verifications/:id',
    {
      config,
      schema: {
        operationId: 'getVerification',
        summary: 'Get a verification',
        tags,
        security,
        description:
          'Reads a verification (polling, the fallback when no webhook arrives). Status values: awaiting_capture, processing, manual_review, approved, declined. ' +
          '`decision_reason`: mrz_check_digits_invalid, mrz_mismatch, document_expired, replayed_frame, image_too_small, no_face_document, no_face_selfie, challenge_not_followed, face_mismatch (declined), ' +
          'document_unreadable, document_sides_mismatch, document_reused, mrz_mismatch, multiple_faces, face_match_uncertain, pipeline_error (manual_review), ' +
          'reviewer_approved, reviewer_declined, or null (approved by the pipeline). An erased verification answers `{id, status, erased: true, erased_at}` forever.',
        params: s.idParams,
        response: { 200: s.verification, ...s.errors(401, 403, 404) },
      },
    },
    async (req) => verifications.get(principal(req), req.params.id),
  );

  app.post(
    '/verifications/:id/handoff',
    {
      config,
      schema: {
        operationId: 'reissueHandoffToken',
        summary: 'Issue a fresh handoff token',
        tags,
        security,
        description:
          'Issues a fresh handoff token (30 minutes) and its `capture_url`, and revokes every earlier one (an open capture page then asks for a new link). 409 once capture is complete or the verification was erased. ' +
          'With Idempotency-Key, a retry answers with yet another fresh token (revoking this one): no live token is ever stored.',
        params: s.idParams,
        response: { 201: s.handoff, ...s.errors(401, 403, 404, 409) },
      },
    },
    async (req, reply) => reply.status(201).send(withCaptureUrl(await verifications.reissueHandoff(principal(req), req.params.id))),
  );

  app.delete(
    '/verifications/:id/handoff',
    {
      config,
      schema: {
        operationId: 'revokeHandoffToken',
        summary: 'Revoke the handoff tokens',
        tags,
        security,
        description: 'Revokes the verification’s handoff tokens: every capture call with them answers 401.',
        params: s.idParams,
        response: { 200: s.handoffRevoked, ...s.errors(401, 403, 404) },
      },
    },
    async (req) => verifications.revokeHandoff(principal(req), req.params.id),
  );

  app.delete(
    '/verifications/:id',
    {
      config,
      schema: {
        operationId: 'eraseVerification',
        summary: 'Erase a verification',
        tags,
        security,
        description:
          'Erases the verification: uploaded images deleted, reference, webhook_url, MRZ data and review notes nulled, handoff tokens and attestations revoked. ' +
          'The record stays addressable and answers `{id, status, erased: true, erased_at}`; erasing again answers the same. ' +
          'A verification erased while processing is never decided (its pipeline run finds nothing to decide). The audit log stays: it holds no personal data.',
        params: s.idParams,
        response: { 200: s.verification, ...s.errors(401, 403, 404) },
      },
    },
    async (req) => verifications.erase(principal(req), req.params.id),
  );
};
