import type { ReviewPolicy } from '../db/vocabulary.js';

/** Why a reviewer declines, from a short list; the note says the rest. */
export const DECLINE_REASONS = [
  'document_unreadable',
  'document_suspected_forged',
  'document_expired',
  'face_mismatch',
  'not_a_live_person',
  'challenge_not_followed',
  'other',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** A reviewer decision already recorded on a case that is still in manual_review. */
export interface PriorDecision {
  reviewerKeyId: string;
  decision: 'approve' | 'decline';
  createdAt: Date;
  /** The operator's name for the reviewer key, if it has one. */
  reviewerName?: string | null;
  /** A decline's reasons (empty for an approval). */
  declineReasons?: string[];
}

/**
 * What a new reviewer decision does (README, "Four-eyes review"): `final` decides the
 * verification; `first` records the first of two; `disagreement` records a second that differs
 * from the first, so a third reviewer decides.
 */
type DecisionWeight = 'final' | 'first' | 'disagreement';

/** Weighs a decision by a key that has not decided this case yet (the caller refuses a repeat). */
export function weighDecision(policy: ReviewPolicy, prior: PriorDecision[], decision: 'approve' | 'decline'): DecisionWeight {
  if (policy === 'single' || prior.length >= 2) return 'final';
  if (prior.length === 0) return 'first';
  return prior[0]!.decision === decision ? 'final' : 'disagreement';
}

/** How a case in manual_review stands between its reviewers, for the queue and the case view. */
export function reviewStanding(prior: PriorDecision[]) {
  return {
    awaiting_second_review: prior.length === 1,
    review_disagreement: prior.length >= 2,
    decisions: prior.map((d) => ({
      reviewer: `reviewer:${d.reviewerKeyId}`,
      reviewer_name: d.reviewerName ?? null,
      decline_reasons: (d.declineReasons ?? []) as DeclineReason[],
      decision: d.decision,
      decided_at: d.createdAt.toISOString(),
    })),
  };
}
