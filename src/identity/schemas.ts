import { z } from 'zod';
import { FRAME_SOURCES, VERIFICATION_STATUSES } from '../db/vocabulary.js';
import { CLAIM_NAMES } from './claims.js';
import { errorBody } from './errors.js';
import { DECLINE_REASONS } from './four-eyes.js';

export { errorBody };

/** Where a frame came from; null while the step has no frame. */
export const frameSource = z
  .enum(FRAME_SOURCES)
  .nullable()
  .describe(
    '`camera`: taken by the capture page’s live camera; `file`: chosen from the device because no camera could be used; null without a frame',
  );

export const idParams = z.object({ id: z.string().describe('Verification id (UUID); anything else answers 404') });

/** An HTTPS address in the field `field`; the service then checks its host as webhook endpoints are checked. */
export const httpsUrlOf = (field: string) =>
  z
    .string()
    .max(2048)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' && u.hostname.length > 0;
      } catch {
        return false;
      }
    }, `${field} must be an HTTPS address`);

export const httpsUrl = httpsUrlOf('webhook_url');

export const returnUrlInput = httpsUrlOf('return_url')
  .nullish()
  .describe(
    'Optional: where the hosted capture page sends the person back when they are done, the link has expired or the page cannot go on (a button on those screens). Checked like `webhook_url`.',
  );
const returnUrl = z.string().nullable().describe('The `return_url` given at creation, or null');

export const createVerificationBody = z.object({
  webhook_url: httpsUrl,
  reference: z.string().min(1).max(200).nullish().describe('Your own reference for this verification; echoed in the webhook'),
  return_url: returnUrlInput,
});

const status = z.enum(VERIFICATION_STATUSES);
const stage = z.enum(['document', 'challenge', 'selfie', 'complete']);

const captureUrl = z
  .string()
  .describe(
    'The hosted capture page for the end user’s device: `<PUBLIC_URL>/capture#<handoff_token>`. Open it on the phone (or show it as a link or QR code); the token travels in the fragment, so it never reaches a server log or a Referer.',
  );

export const createdVerification = z.object({
  id: z.string(),
  status,
  reference: z.string().nullable(),
  webhook_url: z.string(),
  return_url: returnUrl,
  handoff_token: z.string().describe('43 characters, URL-safe base64; pass it unchanged as the device’s Bearer token'),
  handoff_expires_at: z.string(),
  capture_url: captureUrl,
  created_at: z.string(),
});

export const documentSummary = z
  .object({
    type: z.enum(['passport', 'id_card']).describe('`passport` for a TD3 zone, `id_card` for TD1 and TD2'),
    issuing_country: z.string().describe('ISO 3166-1 alpha-3 as in the zone (Germany is `D`)'),
    expires_on: z.string().nullable().describe('YYYY-MM-DD'),
    mrz_source: z
      .enum(['image', 'typed', 'reviewer'])
      .describe('Where the zone came from: read from the document image, typed by the capturing device, or confirmed by a reviewer'),
  })
  .nullable()
  .describe('The document the verification stands on, or null when no zone is known. Never a name, number or birth date.');

export const verification = z.union([
  z.object({
    id: z.string(),
    status,
    reference: z.string().nullable(),
    webhook_url: z.string().nullable(),
    return_url: returnUrl,
    stage,
    decision_reason: z.string().nullable(),
    document: documentSummary,
    created_at: z.string(),
    updated_at: z.string(),
    decided_at: z.string().nullable(),
    consent_declined_at: z
      .string()
      .nullable()
      .describe(
        'When the person answered “No, thanks” on the capture page’s consent screen (audit `capture.consent_declined`; the status stays `awaiting_capture` and the link stops working); null otherwise, and again once a new capture link is issued',
      ),
    erased: z.literal(false),
  }),
  z.object({ id: z.string(), status, erased: z.literal(true), erased_at: z.string() }),
]);

export const handoff = z.object({
  verification_id: z.string(),
  handoff_token: z.string(),
  handoff_expires_at: z.string(),
  capture_url: captureUrl,
});
export const handoffRevoked = z.object({ verification_id: z.string(), handoff_revoked: z.literal(true) });

/** `left`: the person's own left (in the unmirrored camera image the face turns toward the image's right edge). */
export const pose = z
  .enum(['front', 'left', 'right'])
  .describe(
    "Head pose of a challenge step: `left` is the person's own left, so in the camera's unmirrored image the face turns toward the image's right edge; `right` the reverse. null only on challenges issued before poses existed.",
  );

export const nextStep = z.union([
  z.object({ type: z.literal('document') }),
  z.object({ type: z.literal('challenge') }),
  z.object({ type: z.literal('selfie'), step: z.number().int(), pose: pose.nullable() }),
  z.object({ type: z.literal('done') }),
]);

export const captureStatus = z.object({
  verification_id: z.string(),
  stage,
  next_step: nextStep,
  uploaded_steps: z.array(z.number().int()),
  requester: z
    .object({
      name: z.string().describe('The display name of the profile that asks for the verification'),
      privacy_policy_url: z
        .string()
        .nullable()
        .describe('The profile’s `privacyPolicyUrl` (https), linked on the consent screen before the camera opens; null when none was set'),
    })
    .describe('Who asks the person to verify, for the capture page’s first (consent) screen'),
  return_url: z.string().nullable().describe('The verification’s `return_url`: where the page sends the person back when it ends, or null'),
});
export const stageAnswer = z.object({ stage, next_step: nextStep });
export const consentDeclined = z.object({
  verification_id: z.string(),
  consent_declined_at: z.string().describe('When the person declined; the verification keeps its status and shows this time'),
});
export const poseCheck = z
  .object({
    yaw_turn: z.number().describe('Radians: a `left` or `right` step turns the head at least this far (FACE_YAW_TURN)'),
    yaw_front: z.number().describe('Radians: a `front` step turns it at most this far either way (FACE_YAW_FRONT)'),
  })
  .describe(
    'The head-pose thresholds the pipeline judges each frame by (`challenge_not_followed`), so a device can check a frame before it sends it. Given also when this server checks no faces (FACE_CHECKS=off): the capture page then still guides the person to the asked pose on the device',
  );
export const challenge = z.object({
  challenge_id: z.string(),
  steps: z.array(z.object({ step: z.number().int(), instruction: z.string(), pose: pose.nullable() })),
  pose_check: poseCheck,
});

export const reviewBody = z.object({
  decision: z.enum(['approve', 'decline']),
  decline_reasons: z
    .array(z.enum(DECLINE_REASONS))
    .max(DECLINE_REASONS.length)
    .refine((r) => new Set(r).size === r.length, 'each reason at most once')
    .optional()
    .describe('With `decline` only: the reasons from the list (the note explains); an approval with reasons is refused (422)'),
  note: z
    .string()
    .refine((n) => n.trim().length >= 20, 'note must be at least 20 characters after trimming')
    .describe('Mandatory: why, at least 20 characters after trimming'),
  mrz: z
    .string()
    .max(200)
    .optional()
    .describe(
      'With `approve` only: the machine-readable zone as the reviewer read or corrected it from the document images, lines joined by \\n. It must parse with every check digit holding (422 otherwise) and becomes the verification’s zone with `mrz_source` `reviewer`, so its claims can be attested.',
    ),
});
export const reviewResult = z.object({ review_id: z.string(), verification });
/** Where a case stands between its reviewers (docs/identity.md, "Four-eyes review"). */
const reviewStanding = {
  awaiting_second_review: z
    .boolean()
    .describe('Under four-eyes review: one reviewer decided; a second, different reviewer (another key and another holder) must agree'),
  review_disagreement: z
    .boolean()
    .describe('Under four-eyes review: two reviewers disagreed; the next decision, by a third reviewer, is final'),
  decisions: z
    .array(
      z.object({
        reviewer: z.string().describe('`reviewer:<key id>`'),
        reviewer_name: z.string().nullable().describe("The reviewer key's name, when the operator gave it one"),
        decision: z.enum(['approve', 'decline']),
        decline_reasons: z.array(z.enum(DECLINE_REASONS)).describe('The reasons given with a decline; empty for an approval'),
        decided_at: z.string(),
      }),
    )
    .describe('The reviewer decisions recorded so far, oldest first'),
};

export const reviewClaim = z
  .object({
    reviewer: z.string().describe('`reviewer:<key id>` of the key holding the case'),
    reviewer_name: z.string().nullable().describe("That key's name, when it has one"),
    until: z.string().describe('When the claim lapses by itself unless renewed'),
  })
  .nullable()
  .describe('Who is working on the case now (a claim); null when nobody is or the claim lapsed');
export const reviewClaimResult = z.object({ claim: reviewClaim });

export const reviewQueue = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      status: z.literal('manual_review'),
      reason: z.string().nullable(),
      reference: z.string().nullable().describe('The customer reference the backend gave when it started the verification'),
      created_at: z.string(),
      updated_at: z.string(),
      ...reviewStanding,
      claim: reviewClaim,
    }),
  ),
});

export const attestationBody = z.object({ claim: z.enum(CLAIM_NAMES) });
export const attestation = z.object({
  id: z.string(),
  claim: z.enum(CLAIM_NAMES),
  value: z.union([z.boolean(), z.string()]),
  verification_id: z.string(),
  issued_at: z.string(),
  jws: z.string(),
});
export const claimCatalogue = z.object({
  claims: z.array(z.object({ name: z.string(), description: z.string(), needs_mrz: z.boolean() })),
});
export const jwks = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
      key_ops: z.array(z.string()),
      purpose: z.string(),
    }),
  ),
});

/** The error answers every identity route can give, all `{detail}`. */
export const errors = (...codes: number[]) => Object.fromEntries([...new Set([...codes, 429, 500, 503])].map((c) => [c, errorBody]));

const imageUrl = z
  .string()
  .nullable()
  .describe('Where a reviewer key fetches the image (GET, same Authorization); null when none was uploaded');
export const reviewCase = z.object({
  id: z.string(),
  status,
  reason: z.string().nullable().describe('Why the verification is where it is (e.g. document_reused, pipeline_error), or null'),
  reference: z.string().nullable(),
  created_at: z.string(),
  document: z.object({
    image_url: imageUrl,
    content_type: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    back: z
      .object({
        image_url: imageUrl,
        content_type: z.string().nullable(),
        width: z.number().int().nullable(),
        height: z.number().int().nullable(),
      })
      .nullable()
      .describe('The other side of an ID card (image at /v1/review/{id}/images/document-back), or null when none was sent'),
    mrz: z
      .record(z.string(), z.string().nullable())
      .nullable()
      .describe(
        'The zone: its parsed fields (as printed) when one is known, `source` (`image`, `typed`, `reviewer`, or null when no zone is known) and `lines` (the text the document reading saw, lines joined by \\n; empty when it saw nothing). Null when no zone was typed and nothing was read.',
      ),
  }),
  steps: z.array(
    z.object({
      step: z.number().int(),
      instruction: z.string(),
      pose: z.enum(['front', 'left', 'right']).nullable().describe('The head pose the step asks for, when face checks issued one'),
      image_url: imageUrl,
      content_type: z.string().nullable(),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      source: frameSource,
    }),
  ),
  signals: z.record(z.string(), z.unknown()).describe('The pipeline’s measurements (possibly empty)'),
  audit: z
    .array(
      z.object({
        type: z.string(),
        at: z.string(),
        actor: z.string(),
        actor_name: z
          .string()
          .nullable()
          .describe("The name of the actor's key (`reviewer:<key id>`, `backend:<key id>`), when it has one"),
      }),
    )
    .describe('The verification’s audit chain, oldest first'),
  ...reviewStanding,
  first_approval: z
    .object({
      reviewer: z.string().describe('`reviewer:<key id>`'),
      reviewer_name: z.string().nullable(),
      decided_at: z.string(),
      mrz: z
        .record(z.string(), z.string().nullable())
        .nullable()
        .describe('The zone that approval carried: its parsed fields and `lines` (joined by \\n); null when it carried none'),
    })
    .nullable()
    .describe(
      'Under four-eyes review, while the case is in review: the earliest approval so far and the zone it carried, which the deciding approval must carry too (both none, or the same lines; else 409). It is not the verification’s zone (`document.mrz`) until then. Null when nobody approved yet or the case is decided.',
    ),
  decided_by_you: z
    .boolean()
    .describe(
      'The calling reviewer already decided this case, with this key or another key of the same holder (it may not decide it again)',
    ),
  claim: reviewClaim,
  document_used_by: z
    .array(
      z.object({
        id: z.string(),
        status,
        created_at: z.string(),
        in_reach: z.boolean().describe('Whether a reviewer key may open that case now (GET /v1/review/{id})'),
      }),
    )
    .describe(
      "The profile's other verifications that used the same document image or read the same document number (why a case is document_reused), oldest first, at most 20",
    ),
});
export const selfieParams = idParams.extend({ step: z.coerce.number().int().min(0).max(99).describe('The challenge step (0-based)') });
