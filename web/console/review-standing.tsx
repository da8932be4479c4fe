import { localTime } from './lib.js';
import { Notice } from './ui.js';
import { DECLINE_REASON_WORDS, type DeclineReason } from './decline-reasons.js';

/** How a case stands between its reviewers under four-eyes review (docs/identity.md, "Four-eyes review"). */
export interface Standing {
  awaiting_second_review: boolean;
  review_disagreement: boolean;
  decisions: {
    reviewer: string;
    reviewer_name: string | null;
    decision: 'approve' | 'decline';
    decline_reasons: DeclineReason[];
    decided_at: string;
  }[];
}

/** "Dana approved" or "reviewer:… declined": the key's name when the operator gave it one. */
export function whoDecided(d: Standing['decisions'][number]): string {
  return `${d.reviewer_name ?? d.reviewer} ${DONE[d.decision]}`;
}

const DONE = { approve: 'approved', decline: 'declined' } as const;

/** The queue's short word for a case's standing. */
export function standingLabel(s: Standing): string {
  if (s.review_disagreement) return 'reviewers disagree';
  if (s.awaiting_second_review) return 'awaiting a second review';
  return '—';
}

/** Who decided what so far, and what the case waits for; nothing under single review. */
export function StandingNotice({ standing, decidedByYou }: { standing: Standing; decidedByYou: boolean }) {
  if (!standing.awaiting_second_review && !standing.review_disagreement) return null;
  const [first, second] = standing.decisions;
  return (
    <Notice kind="warn">
      <p data-testid="review-standing">
        <strong>{standing.review_disagreement ? 'Reviewers disagree' : 'Awaiting a second review'}</strong>
        {standing.review_disagreement ? ': the next decision, by a third reviewer, is final.' : ': a second reviewer must agree.'}
      </p>
      <ul>
        {[first, second].map(
          (d, i) =>
            d && (
              <li key={i}>
                {i === 0 ? 'First' : 'Second'}: {d.reviewer_name && <strong>{d.reviewer_name} </strong>}
                <code>{d.reviewer}</code> {DONE[d.decision]} at {localTime(d.decided_at)}
                {d.decline_reasons.length > 0 && <> — {d.decline_reasons.map((r) => DECLINE_REASON_WORDS[r]).join('; ')}</>}
              </li>
            ),
        )}
      </ul>
      {decidedByYou && <p>You already decided this case: another reviewer must decide it.</p>}
    </Notice>
  );
}
