import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerToken } from '../../auth/api-keys.js';
import type { CaptureService } from '../capture/service.js';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../schemas.js';
import { uploadRefusalBody } from '../errors.js';
import { MAX_IMAGE_ASPECT, MAX_IMAGE_SIDE, MAX_UPLOAD_SIZE, MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH, MIN_UPLOAD_SIZE } from '../upload-limits.js';
import { MAX_IMAGE_MEGAPIXELS } from '../../recognition/image-bounds.js';
import { readCaptureForm } from '../uploads/multipart.js';

const tags = ['identity: capture'];
const security = securityOf.captureHandoff;
const uploadRules =
  `The file is streamed: its type is read from its magic bytes and image header (JPEG, PNG or WebP, else 415), over ${MAX_UPLOAD_SIZE} → 413 (the upload stops there), under ${MIN_UPLOAD_SIZE} → 422, a header claiming over ${MAX_IMAGE_MEGAPIXELS} megapixels, a longer side over ${MAX_IMAGE_SIDE} pixels or more than ${MAX_IMAGE_ASPECT} times the shorter side → 422 (before it is stored), ` +
  `an image under ${MIN_IMAGE_WIDTH}×${MIN_IMAGE_HEIGHT} pixels → 422 with \`code\` \`image_too_small\` (take the photo again). ` +
  'EXIF/GPS and text metadata, and anything after a JPEG’s end-of-image marker, are stripped before the image is stored. ';
const resume = 'After a 409, call GET /v1/capture/status and resume from `next_step`.';
const imageField = {
  type: 'string',
  format: 'binary',
  description: `The image: JPEG, PNG or WebP, ${MIN_UPLOAD_SIZE} to ${MAX_UPLOAD_SIZE}, ${MIN_IMAGE_WIDTH}×${MIN_IMAGE_HEIGHT} pixels to ${MAX_IMAGE_MEGAPIXELS} megapixels, its longer side at most ${MAX_IMAGE_SIDE} pixels and ${MAX_IMAGE_ASPECT} times the shorter`,
};

export const PIPELINE_DESCRIPTION =
  'When the last step’s frame is stored the verification moves to `processing` and the decision pipeline is queued durably (a restart does not lose it). ' +
  'The pipeline decides, in this order: MRZ check digits fail → `declined` (reason `mrz_check_digits_invalid`); MRZ expiry date before today → `declined` (`document_expired`); ' +
  'two byte-identical selfie frames → `declined` (`replayed_frame`); any image smaller than 320×240 → `declined` (`image_too_small`); ' +
  'the same document image (SHA-256 of the stored file) already used by another verification → `manual_review` (`document_reused`). ' +
  'With document reading on (the default), the machine-readable zone is then read from the images (`back` first, then `file`): none whose check digits all hold → `manual_review` (`document_unreadable`); ' +
  'a typed `mrz` that differs from the zone read in a character the reader never confuses with the one read → `declined` (`mrz_mismatch`); the zone read has expired → `declined` (`document_expired`); ' +
  'with `back`: the zone not read from `back`, a passport zone (TD3) read from `back`, or a front whose printed document number (read from its visual zone; characters the reader confuses, such as O and 0, count as equal) is not the zone’s → `manual_review` (`document_sides_mismatch`); ' +
  'the zone’s document number already read by another verification of the same profile created in the last 90 days → `manual_review` (`document_reused`); ' +
  'a typed `mrz` that differs from the zone read only in characters the reader confuses (O/0, I/1, S/5, B/8, S/8, Z/2, G/6, `<`/K …): an OCR slip → `manual_review` (`mrz_mismatch`), never `declined`. ' +
  'The zone read becomes the verification’s (`document.mrz_source` `image`), except after `mrz_mismatch` (the typed zone stays) and `document_sides_mismatch` (none until a reviewer confirms one). ' +
  'With face checks on (the default), then: no face in the document → `declined` (`no_face_document`); a frame without a face → `declined` (`no_face_selfie`); ' +
  'more than one face in an image → `manual_review` (`multiple_faces`); a frame whose head pose contradicts its step’s `pose` → `declined` (`challenge_not_followed`); ' +
  'the median document↔frame face similarity below the low threshold → `declined` (`face_mismatch`), below the high one → `manual_review` (`face_match_uncertain`). Otherwise `approved`. ' +
  'A document sent without `mrz` skips the typed-zone checks. Any error inside the pipeline moves the verification to `manual_review` (`pipeline_error`) and records the audit event `verification.pipeline_error`.';

/** The handoff token of a capture request, or null (the capture service answers 401). */
const handoffTokenOf = (req: FastifyRequest) => bearerToken(req.headers.authorization);

/** The device's capture flow; every endpoint takes the handoff token as `Authorization: Bearer <token>` (401 when missing, expired or revoked). */
export const captureRoutes: FastifyPluginAsyncZod<{ capture: CaptureService }> = async (app, { capture }) => {
  app.get(
    '/capture/status',
    {
      schema: {
        operationId: 'captureStatus',
        summary: 'Where the device stands in the capture flow',
        tags,
        security,
        description:
          'Where the device stands: `stage` (document, challenge, selfie, complete), `next_step` (where to resume) and `uploaded_steps`; ' +
          'also `requester.name` (the display name of the profile asking, for a first screen saying who asks) and `return_url` (where to send the person back at the end, or null).',
        response: { 200: s.captureStatus, ...s.errors(401) },
      },
    },
    async (req) => capture.status(await capture.authenticate(handoffTokenOf(req))),
  );

  app.post(
    '/capture/document',
    {
      schema: {
        operationId: 'uploadDocument',
        summary: 'Upload the identity document',
        tags,
        security,
        consumes: ['multipart/form-data'],
        multipartForm: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              ...imageField,
              description: `${imageField.description}: the passport's data page, or the side of an ID card with the portrait`,
            },
            back: {
              ...imageField,
              description: `${imageField.description}: the other side of an ID card (the one with the machine-readable zone); optional`,
            },
            mrz: { type: 'string', description: 'The machine-readable zone, its lines joined by \\n' },
          },
        },
        description: `Uploads the identity document: multipart, file field \`file\` (the side with the portrait), optional file field \`back\` (the other side of an ID card, same rules), optional text field \`mrz\` (the machine-readable zone, lines joined by \\n; an unreadable one → 422). ${uploadRules}409 once past the document stage. ${resume}`,
        response: { 201: s.stageAnswer, ...s.errors(401, 409, 413, 415), 422: uploadRefusalBody },
      },
    },
    async (req, reply) => {
      const v = await capture.authenticate(handoffTokenOf(req));
      capture.assertCanUploadDocument(v);
      const form = await readCaptureForm(req, capture.uploadSink(v, { takesBack: true }));
      return reply.status(201).send(await capture.uploadDocument(v, form));
    },
  );

  app.post(
    '/capture/consent/decline',
    {
      schema: {
        operationId: 'declineCaptureConsent',
        summary: 'The person declines to be verified',
        tags,
        security,
        description:
          'The person answered “No, thanks” on the consent screen, before anything was sent: audit `capture.consent_declined`, the verification keeps its status (`awaiting_capture`) and shows `consent_declined_at`, and every handoff token is revoked (a new link, POST /v1/verifications/{id}/handoff, asks again). ' +
          `409 once the document was uploaded. ${resume}`,
        response: { 200: s.consentDeclined, ...s.errors(401, 409) },
      },
    },
    async (req) => capture.declineConsent(await capture.authenticate(handoffTokenOf(req))),
  );

  app.post(
    '/capture/challenge',
    {
      schema: {
        operationId: 'getChallenge',
        summary: 'Get the liveness challenge',
        tags,
        security,
        description: `The liveness challenge: 3 to 5 steps, each with an instruction and the head \`pose\` it asks for (front, left, right; left is the person’s own left, so in the unmirrored camera image the face turns toward the image’s right edge); every challenge has one left and one right step; a repeated call answers the same challenge. 409 before the document upload. ${resume}`,
        response: { 200: s.challenge, ...s.errors(401, 409) },
      },
    },
    async (req) => capture.challenge(await capture.authenticate(handoffTokenOf(req))),
  );

  app.post(
    '/capture/selfie',
    {
      schema: {
        operationId: 'uploadSelfieFrame',
        summary: 'Upload one selfie frame',
        tags,
        security,
        consumes: ['multipart/form-data'],
        multipartForm: {
          type: 'object',
          required: ['step', 'file'],
          properties: {
            step: { type: 'string', pattern: '^[0-9]+$', description: 'The challenge step this frame answers, 0..N-1' },
            source: {
              type: 'string',
              enum: ['camera', 'file'],
              description:
                '`camera` (the default): taken by the live camera; `file`: chosen from the device because no camera could be used. Stored with the frame, shown in the signals (`frames[].source`) and the case views',
            },
            file: imageField,
          },
        },
        description:
          `Uploads one selfie frame: multipart, text field \`step\` (0..N-1, else 422), optional text field \`source\` (\`camera\` or \`file\`, else 422) and file field \`file\`, in either order. ${uploadRules}` +
          `409 before the document upload, before the challenge, or when that step already has its frame. ${resume} ${PIPELINE_DESCRIPTION}`,
        response: { 201: s.captureStatus, ...s.errors(401, 409, 413, 415), 422: uploadRefusalBody },
      },
    },
    async (req, reply) => {
      const v = await capture.authenticate(handoffTokenOf(req));
      capture.assertCanUploadSelfie(v);
      const form = await readCaptureForm(req, { ...capture.uploadSink(v), beforeFile: (fields) => capture.checkStepBeforeFile(v, fields) });
      return reply.status(201).send(await capture.uploadSelfie(v, form));
    },
  );
};
