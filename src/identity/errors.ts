import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, codeForStatus, useErrorFormat, type ErrorFormat } from '../plugins/error-handler.js';
import { MAX_IMAGE_ASPECT, MAX_IMAGE_SIDE, MAX_UPLOAD_SIZE, MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH, MIN_UPLOAD_SIZE } from './upload-limits.js';
import { MAX_IMAGE_MEGAPIXELS } from '../recognition/image-bounds.js';

/**
 * An identity API error: its status and the one human-readable `detail` (the message). The
 * identity API shows no code; the one it carries is its status's, for the operator API, which
 * answers the identity service's refusals in its envelope (410 is GONE there).
 */
export class IdentityError extends ApiError {
  constructor(statusCode: number, detail: string, code?: IdentityErrorCode) {
    super(statusCode, code ?? (statusCode === 410 ? 'GONE' : codeForStatus(statusCode)), detail);
  }
}

/**
 * The few refusals a device acts on by kind rather than by reading `detail`: they carry `code`
 * beside `detail` (the capture page asks for a new photo on `image_too_small`).
 */
const SHOWN_CODES = ['image_too_small'] as const;
type IdentityErrorCode = (typeof SHOWN_CODES)[number];
const isShownCode = (code: string): code is IdentityErrorCode => (SHOWN_CODES as readonly string[]).includes(code);

export const errorBody = z.object({ detail: z.string() }).describe('Every identity error: exactly one field, `detail`.');

/** A refused upload: `detail`, and `code` on the refusals a device acts on by kind. */
export const uploadRefusalBody = z
  .object({
    detail: z.string(),
    code: z
      .enum(SHOWN_CODES)
      .optional()
      .describe(`\`image_too_small\`: the image is under ${MIN_IMAGE_WIDTH}×${MIN_IMAGE_HEIGHT} pixels; take the photo again`),
  })
  .describe('A refused upload: `detail`, plus `code` when the device should act on the kind of refusal (only `image_too_small` so far).');

const fail = (statusCode: number, detail: string, code?: IdentityErrorCode) => new IdentityError(statusCode, detail, code);
const resume = 'call GET /v1/capture/status and resume from next_step';

/**
 * The identity error catalogue: every refusal of the identity API with its status, in one place.
 * The device's 409s name the call that tells it where to resume (`next_step`).
 */
export const identityErrors = {
  // Keys and handoff tokens
  apiKeyMissing: () => fail(401, 'A valid API key is required: Authorization: Bearer <key>'),
  apiKeyInvalid: () => fail(401, 'The API key is not valid'),
  wrongRole: (role: string) => fail(403, `This endpoint needs a ${role} key`),
  handoffTokenInvalid: () =>
    fail(401, 'The handoff token is missing, expired or revoked: create a new verification or ask the backend for a new token'),
  rateLimited: (max: number, retrySeconds: number) =>
    fail(429, `Rate limit exceeded: ${max} requests per minute; retry in ${retrySeconds} s`),
  authBraked: (retrySeconds: number) => fail(429, `Too many failed authentications from this address; retry in ${retrySeconds} s`),

  // Verifications
  verificationNotFound: () => fail(404, 'Verification not found'),
  webhookUrlRefused: (reason: string) => fail(422, `webhook_url ${reason}`),
  returnUrlRefused: (reason: string) => fail(422, `return_url ${reason}`),
  verificationErased: () => fail(409, 'The verification was erased'),
  alreadyDecidedByThisKey: () =>
    fail(409, 'This reviewer key already decided this case: under four-eyes review a second, different reviewer must decide'),
  alreadyDecidedByThisHolder: () =>
    fail(
      409,
      'Another key of the same holder already decided this case: keys of one holder count as one reviewer, so under four-eyes review a different person must decide',
    ),
  /** `difference` names formats and character positions only, never the zone's characters (they are personal data). */
  zoneDiffersFromFirstApproval: (difference: string) =>
    fail(
      409,
      `${difference}: under four-eyes review the deciding approval carries the same zone as the first approval (both none, or the same lines). ` +
        'GET /v1/review/{id} shows the first approval’s zone as first_approval.mrz; approve with it, or decline.',
    ),
  captureNotRestartable: (reasons: readonly string[]) =>
    fail(409, `Capture can be restarted only for a verification declined because its images could not be used (${reasons.join(', ')})`),
  captureComplete: () => fail(409, 'Capture is complete: no handoff token is needed any more'),
  claimedByAnother: (until: string) => fail(409, `Another reviewer holds this case until ${until}`),
  reasonsWithApproval: () => fail(422, 'decline_reasons go with a decline only: an approval has none'),
  notInReview: (status: string) => fail(409, `The verification is ${status}, not in manual_review`),
  notApproved: (status: string) => fail(409, `The verification is ${status}, not approved`),
  claimUnsupported: (claim: string) =>
    fail(
      409,
      `This verification's data cannot support the claim ${claim} (no machine-readable zone read from the document or confirmed by a reviewer)`,
    ),

  // Review cases
  imagesErased: () => fail(410, 'The verification was erased: its images and personal data are gone'),
  noDocumentImage: () => fail(404, 'No document image was uploaded'),
  noDocumentBack: () => fail(404, 'No back of the document was uploaded'),
  reviewZoneWithDecline: () => fail(422, 'A machine-readable zone can only be confirmed with an approval'),
  reviewZoneInvalid: () => fail(422, 'The machine-readable zone does not parse as TD1, TD2 or TD3 with every check digit holding'),
  noSelfieFrame: (step: number) => fail(404, `No selfie frame was uploaded for step ${step}`),

  // Capture flow
  documentAlreadyUploaded: () => fail(409, `The document was already uploaded: ${resume}`),
  documentFirst: () => fail(409, `Upload the document first: ${resume}`),
  challengeFirst: () => fail(409, `Request the challenge first: ${resume}`),
  allFramesUploaded: () => fail(409, 'Every step already has its frame: call GET /v1/capture/status'),
  stepTaken: (step: number) => fail(409, `Step ${step} already has its frame: ${resume}`),
  stepOutOfRange: (steps: number) => fail(422, `step must be an integer from 0 to ${steps - 1}`),
  mrzUnreadable: () => fail(422, 'mrz must be a machine-readable zone (TD1, TD2 or TD3), lines joined by \\n'),
  frameSourceInvalid: () => fail(422, 'source must be "camera" or "file"'),
  consentAfterUpload: () => fail(409, `Consent can only be declined before the document is uploaded: ${resume}`),

  // Multipart bodies and images
  notMultipart: () => fail(415, 'The request must be multipart/form-data'),
  oneFileOnly: () => fail(422, 'Send exactly one file, in the field "file"'),
  documentFilesOnly: () =>
    fail(422, 'Send the document in the field "file" and, for an ID card, its other side in the field "back": one file each'),
  fileMissing: () => fail(422, 'The file field "file" is missing'),
  fieldUnstorable: (field: string, reason: string) => fail(422, `body.${field}: ${reason}`),
  multipartMalformed: () => fail(400, 'The multipart body is malformed or ended early'),
  uploadEndedEarly: () => fail(400, 'The upload ended early or the multipart body is malformed'),
  fileTooLarge: () => fail(413, `The file is larger than ${MAX_UPLOAD_SIZE}`),
  fileTooSmall: () => fail(422, `The file is smaller than ${MIN_UPLOAD_SIZE}`),
  unsupportedImageType: () => fail(415, 'The file must be a JPEG, PNG or WebP image'),
  tooManyPixels: (width: number, height: number) =>
    fail(422, `The image is ${width}×${height} pixels: at most ${MAX_IMAGE_MEGAPIXELS} megapixels are accepted`),
  sideTooLong: (width: number, height: number) =>
    fail(422, `The image is ${width}×${height} pixels: its longer side may be at most ${MAX_IMAGE_SIDE} pixels`),
  tooElongated: (width: number, height: number) =>
    fail(422, `The image is ${width}×${height} pixels: its longer side may be at most ${MAX_IMAGE_ASPECT} times its shorter side`),
  imageTooSmall: (width: number, height: number) =>
    fail(
      422,
      `The image is ${width}×${height} pixels: at least ${MIN_IMAGE_WIDTH}×${MIN_IMAGE_HEIGHT} is needed; take the photo again closer or at a higher resolution`,
      'image_too_small',
    ),
  unreadableImageHeader: () => fail(415, 'The image header could not be read: the file must be a valid JPEG, PNG or WebP image'),
  tooManyFields: () => fail(422, 'Too many form fields'),
  tooManyParts: () => fail(422, 'Too many form parts'),
  invalidFieldName: () => fail(422, 'Invalid form field name'),
};

/**
 * The multipart plugin's own errors, by their code, as catalogue errors: the limits the plugin
 * enforces before a part reaches the route answer as if the route had refused them itself.
 */
const MULTIPART_ERRORS: Record<string, () => IdentityError> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: identityErrors.notMultipart,
  FST_REQ_FILE_TOO_LARGE: identityErrors.fileTooLarge,
  FST_FILES_LIMIT: identityErrors.oneFileOnly,
  FST_FIELDS_LIMIT: identityErrors.tooManyFields,
  FST_PARTS_LIMIT: identityErrors.tooManyParts,
  FST_PROTO_VIOLATION: identityErrors.invalidFieldName,
};

/** The catalogue error for one of the multipart plugin's errors, or undefined for any other error. */
export function multipartError(err: unknown): IdentityError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(MULTIPART_ERRORS, code) ? MULTIPART_ERRORS[code]!() : undefined;
}

/** `{detail}` (plus `code` on the few refusals that show one); a refused request names its first bad field, 422. The multipart plugin's own limit errors are answered from the catalogue. */
export const identityErrorFormat: ErrorFormat = {
  body: ({ message, code }) => (isShownCode(code) ? { detail: message, code } : { detail: message }),
  validation: { status: 422, issues: 'first' },
  ownError: (err) => {
    const known = multipartError(err);
    return known ? { status: known.statusCode, code: known.code, message: known.message } : undefined;
  },
};

/** Every error in this scope, the framework's own included, becomes `{detail}` (plus `code` where shown). */
export function useIdentityErrors(scope: FastifyInstance): void {
  useErrorFormat(scope, identityErrorFormat);
}
