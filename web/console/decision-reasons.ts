import { DECLINE_REASON_WORDS } from './decline-reasons.js';

/**
 * A verification's `decision_reason` in words, for operators and reviewers (the codes are listed
 * in the OpenAPI description of GET /v1/verifications/{id}). The code stays beside the words, as
 * it is what logs, webhooks and the partner's backend carry.
 */
const WORDS: Record<string, string> = {
  // The codes a reviewer also declines with keep the reviewer's words (decline-reasons.ts).
  ...DECLINE_REASON_WORDS,
  mrz_check_digits_invalid: 'The zone’s check digits do not hold',
  mrz_mismatch: 'The zone typed differs from the zone read on the document',
  document_reused: 'The document was used in another verification',
  document_sides_mismatch: 'The front and the back are not one document',
  replayed_frame: 'A selfie frame was sent twice',
  image_too_small: 'An image is too small to check',
  no_face_document: 'No face on the document',
  no_face_selfie: 'No face in a selfie frame',
  multiple_faces: 'More than one face in a selfie frame',
  face_match_uncertain: 'The face match is uncertain',
  pipeline_error: 'The automatic checks failed to run',
  reviewer_approved: 'Approved by a reviewer',
  reviewer_declined: 'Declined by a reviewer',
};

/** "Words (code)", the code alone when it has no words here, a dash for none. */
export function decisionReasonText(reason: string | null): string {
  if (reason === null) return '—';
  const words = WORDS[reason];
  return words ? `${words} (${reason})` : reason;
}
