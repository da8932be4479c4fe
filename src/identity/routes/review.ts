import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf, requireRole } from '../auth.js';
import * as s from '../schemas.js';
import type { VerificationService } from '../service.js';

const tags = ['identity: review'];
const security = [{ bearer: [] }];

/** The reviewer's endpoints (reviewer keys only). */
export const reviewRoutes: FastifyPluginAsyncZod<{ verifications: VerificationService }> = async (app, { verifications }) => {
  const onRequest = requireRole(app.db, 'reviewer');

  app.get('/review', {
    onRequest,
    schema: {
      operationId: 'listReviewQueue',
      tags,
      security,
      description: 'The open manual-review queue of the reviewer’s profile, oldest first. `reason` says why: document_reused, multiple_faces, face_match_uncertain or pipeline_error.',
      response: { 200: s.reviewQueue, ...s.errors(401, 403) },
    },
  }, async (req) => verifications.reviewQueue(principalOf(req)));

  app.post('/review/:id', {
    onRequest,
    schema: {
      operationId: 'reviewVerification',
      tags,
      security,
      description:
        'Decides a verification in manual_review: `decision` approve or decline, `note` mandatory (at least 20 characters after trimming; else 422). ' +
        'Compare-and-set: of two racing decisions exactly one wins, the other (and any later one) answers 409. The decision webhook is sent.',
      params: s.idParams,
      body: s.reviewBody,
      response: { 200: s.reviewResult, ...s.errors(401, 403, 404, 409, 422) },
    },
  }, async (req) => verifications.review(principalOf(req), req.params.id, req.body));
};
