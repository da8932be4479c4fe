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
  /** The person holding the reviewer key, if the operator named one (null: the key is its own holder). */
  reviewerHolder?: string | null;
  /** The zone an approval carried, normalised (null: none); kept with the decision until the deciding approval confirms it. */
  mrz?: string | null;
}

/**
 * Who counts as one reviewer (docs/identity.md, "Four-eyes review"): the key's holder, compared ignoring
 * case and spacing, so one person with two keys is one reviewer; a key without holder is its own.
 */
export function reviewerIdentity(keyId: string, holder: string | null | undefined): string {
  const person = holder?.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return person ? `holder:${person}` : `key:${keyId}`;
}

/** Whether the reviewer of `keyId` (holding it as `holder`) already decided one of `prior`. */
export function decidedBefore(prior: PriorDecision[], keyId: string, holder: string | null | undefined): boolean {
  const reviewer = reviewerIdentity(keyId, holder);
  return prior.some((d) => reviewerIdentity(d.reviewerKeyId, d.reviewerHolder) === reviewer);
}

/**
 * The approval a deciding approval must agree with on the zone: the earliest approval among the
 * case's decisions under four-eyes review (after a disagreement, the approval the other reviewer
 * declined against); none under `single` or when nobody approved yet.
 */
export function approvalToMatch(policy: ReviewPolicy, prior: PriorDecision[]): PriorDecision | undefined {
  return policy === 'four_eyes' ? prior.find((d) => d.decision === 'approve') : undefined;
}

/** The zone's format by its shape (ICAO 9303): TD1 3 lines of 30, TD2 2 of 36, TD3 2 of 44. */
function zoneFormat(zone: string): string {
  const lines = zone.split('\n');
  const shape = `${lines.length}x${lines[0]?.length ?? 0}`;
  return { '3x30': 'TD1', '2x36': 'TD2', '2x44': 'TD3' }[shape] ?? 'unknown format';
}

/** "23", "23 and 28", "23, 28 and 44", at most 8 named. */
function positionWords(positions: number[]): string {
  const named = positions.slice(0, 8).map(String);
  if (positions.length > 8) return `${named.join(', ')} and ${positions.length - 8} more`;
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

/**
 * How an approval's zone differs from the first approval's, in words that hold none of either
 * zone's characters (they name a person and a document): the format, and which characters of
 * which line differ. Null when both carry none or the same normalised lines.
 */
export function zoneDifference(first: string | null, zone: string | null): string | null {
  if (first === zone) return null;
  if (first === null) return 'The first approval carried no machine-readable zone and this approval carries one';
  if (zone === null) return `The first approval carried a machine-readable zone (${zoneFormat(first)}) and this approval carries none`;
  const [a, b] = [first.split('\n'), zone.split('\n')];
  if (zoneFormat(first) !== zoneFormat(zone) || a.length !== b.length || a.some((line, i) => line.length !== b[i]!.length))
    return `The first approval carried a different machine-readable zone (${zoneFormat(first)}; this one is ${zoneFormat(zone)})`;
  const lines = a.flatMap((line, i) => {
    const differing = [...line].flatMap((c, j) => (c === b[i]![j] ? [] : [j + 1]));
    if (differing.length === 0) return [];
    return [`line ${i + 1}, character${differing.length === 1 ? '' : 's'} ${positionWords(differing)}`];
  });
  return `The first approval carried a different machine-readable zone (${zoneFormat(first)}; they differ at ${lines.join('; ')})`;
}

/**
 * What a new reviewer decision does (docs/identity.md, "Four-eyes review"): `final` decides the
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
