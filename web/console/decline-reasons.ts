/** The decline reasons the API accepts (POST /v1/review/{id}), in a reviewer's words. */
export const DECLINE_REASON_WORDS = {
  document_unreadable: 'Document unreadable',
  document_suspected_forged: 'Document looks forged or altered',
  document_expired: 'Document expired',
  face_mismatch: 'Face does not match the document',
  not_a_live_person: 'Not a live person (photo of a photo, screen, mask)',
  challenge_not_followed: 'Head-turn steps not followed',
  other: 'Other (the note says what)',
} as const;
export type DeclineReason = keyof typeof DECLINE_REASON_WORDS;
export const DECLINE_REASONS = Object.keys(DECLINE_REASON_WORDS) as DeclineReason[];
