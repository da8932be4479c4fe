import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../schemas.js';
import type { ReviewCaseService } from '../review-case.js';
import type { ReviewClaimService } from '../review-claims.js';
import type { VerificationService } from '../service.js';

const tags = ['identity: review'];
const security = securityOf.identityReviewer;

/** The reviewer's endpoints (reviewer keys only). */
export const reviewRoutes: FastifyPluginAsyncZod<{
  verifications: VerificationService;
  cases: ReviewCaseService;
  claims: ReviewClaimService;
}> = async (app, { verifications, cases, claims }) => {
  const config = { identityRole: 'reviewer' as const };
  const principal = (req: FastifyRequest) => req.identityPrincipal!;

  app.get(
    '/review',
    {
      config,
      schema: {
        operationId: 'listReviewQueue',
        summary: 'The manual-review queue',
        tags,
        security,
        description:
          'The open manual-review queue of the reviewer’s profile, oldest first. `reason` says why: document_unreadable, document_sides_mismatch, document_reused, mrz_mismatch, multiple_faces, face_match_uncertain or pipeline_error.',
        response: { 200: s.reviewQueue, ...s.errors(401, 403) },
      },
    },
    async (req) => verifications.reviewQueue(principal(req)),
  );

  app.post(
    '/review/:id',
    {
      config,
      schema: {
        operationId: 'reviewVerification',
        summary: 'Approve or decline a verification in review',
        tags,
        security,
        description:
          'Decides a verification in manual_review: `decision` approve or decline, `note` mandatory (at least 20 characters after trimming; else 422). ' +
          'A decline may name its `decline_reasons` from a short list (shown with the decision in the queue and the case); an approval with reasons is refused (422). ' +
          'Compare-and-set: of two racing decisions exactly one wins, the other (and any later one) answers 409. The decision webhook is sent. ' +
          'With `approve`, an optional `mrz` confirms or corrects the machine-readable zone read from the images: it must hold every check digit (422 otherwise); once the decision is final it becomes the verification’s zone (audit `review.mrz_confirmed`) and supports attestations (`mrz_source` `reviewer`). ' +
          'Under the profile’s `four_eyes` policy the first decision is recorded (audit `review.first_decision`) and the verification stays in manual_review; a second reviewer agreeing makes it final, one disagreeing leaves it for a third (`review.disagreement`). ' +
          'A reviewer is a key holder: the same key, or another key with the same `holder`, deciding the case again → 409. ' +
          'An approval’s `mrz` stays with that decision, not on the verification, until the deciding approval carries the same zone as the first approval (both none, or the same lines once normalised: upper case, no spaces); ' +
          'otherwise 409 `{detail}` saying whether the first approval carried a zone and, without any of its characters, its format and which characters differ; nothing is decided, the case stays in review and `GET /v1/review/{id}` shows the first approval’s zone (`first_approval.mrz`) beside the zone read. ' +
          'The audit chain records whether each decision carried a zone (`mrz`: `attached` or `none`), on the final one whether it matched the first approval’s (`mrz_against_first`: `same`, or null when no approval came before), and each refused mismatch (`review.mrz_mismatch`); never the zone itself.',
        params: s.idParams,
        body: s.reviewBody,
        response: { 200: s.reviewResult, ...s.errors(401, 403, 404, 409, 422) },
      },
    },
    async (req) => verifications.review(principal(req), req.params.id, req.body),
  );

  app.put(
    '/review/:id/claim',
    {
      config,
      schema: {
        operationId: 'claimReviewCase',
        summary: 'Claim a case in review',
        tags,
        security,
        description:
          'The calling reviewer key holds the case for 15 minutes, so other reviewers see who is working on it (`claim` in the queue and the case); ' +
          'claiming again renews it. Another key’s live claim answers 409; a lapsed one is taken over. A claim does not block decisions; a decision ends it. ' +
          'Each claim appends `review.claimed` (with `until`) to the audit chain with `reviewer:<key id>` as actor.',
        params: s.idParams,
        response: { 200: s.reviewClaimResult, ...s.errors(401, 403, 404, 409) },
      },
    },
    async (req) => claims.claim(principal(req), req.params.id),
  );

  app.delete(
    '/review/:id/claim',
    {
      config,
      schema: {
        operationId: 'releaseReviewCase',
        summary: 'Give a claimed case back',
        tags,
        security,
        description:
          'Ends the calling key’s claim (a no-op when nobody holds the case); another key’s live claim answers 409. ' +
          'Giving back a held claim appends `review.released` to the audit chain with `reviewer:<key id>` as actor.',
        params: s.idParams,
        response: { 200: s.reviewClaimResult, ...s.errors(401, 403, 404, 409) },
      },
    },
    async (req) => claims.release(principal(req), req.params.id),
  );

  app.get(
    '/review/:id',
    {
      config,
      schema: {
        operationId: 'getReviewCase',
        summary: 'Everything a review decision needs',
        tags,
        security,
        description:
          'The case as a reviewer judges it: status and reason, reference, the document (its parsed MRZ fields), every challenge step with its instruction and frame, ' +
          'the pipeline’s signals and the audit trail. Images are fetched separately from each `image_url`. ' +
          'Under four-eyes review, while the case waits, `first_approval` shows the earliest approval and the zone it carried, which the deciding approval must carry too; `document.mrz` stays the zone read or typed until then. ' +
          'Open while the verification is in manual_review and for 24 hours after a reviewer decided it; otherwise (another profile’s, still in capture, decided by the pipeline, or later) 404; erased 410. ' +
          'Every opening appends `review.case_viewed` to the audit chain with `reviewer:<key id>` as actor.',
        params: s.idParams,
        response: { 200: s.reviewCase, ...s.errors(401, 403, 404, 410) },
      },
    },
    async (req) => cases.caseView(principal(req), req.params.id),
  );

  const binaryResponse = {
    status: 200,
    description: 'The stored image bytes, metadata stripped at upload',
    mediaTypes: ['image/jpeg', 'image/png', 'image/webp'],
  };
  const imageResponse = {
    200: z.unknown().describe('The stored image bytes (image/jpeg, image/png or image/webp), metadata stripped at upload'),
    ...s.errors(401, 403, 404, 410),
  };
  const sendImage = (reply: FastifyReply, image: { bytes: Buffer; contentType: string }) =>
    reply.type(image.contentType).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').send(image.bytes);

  app.get(
    '/review/:id/images/document',
    {
      config,
      schema: {
        operationId: 'getReviewDocumentImage',
        summary: 'The document image of a case',
        tags,
        security,
        description:
          'The stored document image, never cached (`Cache-Control: no-store`). Every view appends `review.image_viewed` to the audit chain with `reviewer:<key id>` as actor. Same reach as the case: 404 outside it, erased → 410.',
        params: s.idParams,
        binaryResponse,
        response: imageResponse,
      },
    },
    async (req, reply) => sendImage(reply, await cases.image(principal(req), req.params.id, 'document')),
  );

  app.get(
    '/review/:id/images/document-back',
    {
      config,
      schema: {
        operationId: 'getReviewDocumentBackImage',
        summary: 'The back of the document of a case',
        tags,
        security,
        description:
          'The other side of an ID card, when the device sent one (404 otherwise), never cached (`Cache-Control: no-store`). Every view appends `review.image_viewed` to the audit chain with the reviewer key as actor. Erased → 410.',
        params: s.idParams,
        binaryResponse,
        response: imageResponse,
      },
    },
    async (req, reply) => sendImage(reply, await cases.image(principal(req), req.params.id, 'document-back')),
  );

  app.get(
    '/review/:id/images/selfie/:step',
    {
      config,
      schema: {
        operationId: 'getReviewSelfieImage',
        summary: 'One selfie frame of a case',
        tags,
        security,
        description:
          'The stored selfie frame of one challenge step, never cached (`Cache-Control: no-store`). Every view appends `review.image_viewed` to the audit chain with `reviewer:<key id>` as actor. Same reach as the case: 404 outside it, erased → 410.',
        params: s.selfieParams,
        binaryResponse,
        response: imageResponse,
      },
    },
    async (req, reply) => sendImage(reply, await cases.image(principal(req), req.params.id, req.params.step)),
  );
};
