import { ErrorNote } from './ui.js';
import { DECLINE_REASON_WORDS, DECLINE_REASONS } from './decline-reasons.js';
import { MIN_NOTE, type ReviewCaseState } from './review-case-state.js';
import { ZoneField, type FirstApproval } from './review-zone-view.js';

/**
 * The decision on a case: approve or decline (keys a / d), the reasons of a decline, the zone
 * an approval confirms, the note, and what the service answered. Its state is the case page's
 * (useReviewCase), so keys outside the form act on the same decision.
 */
export function DecisionForm({ review, first }: { review: ReviewCaseState; first: FirstApproval | null }) {
  const { decision, choose, reasons, setReasons, note, setNote, noteLength, noteOk } = review;
  return (
    <form
      class="form decide"
      aria-label="Decision"
      onSubmit={(e) => {
        e.preventDefault();
        void review.submit();
      }}
    >
      <h2>Decision</h2>
      <fieldset>
        <legend>
          Decision (keys <kbd>a</kbd> / <kbd>d</kbd>)
        </legend>
        {(['approve', 'decline'] as const).map((d) => (
          <label key={d}>
            <input type="radio" name="decision" value={d} checked={decision === d} onChange={() => choose(d)} />{' '}
            {d === 'approve' ? 'Approve' : 'Decline'}
          </label>
        ))}
      </fieldset>
      {decision === 'decline' && (
        <fieldset class="reasons">
          <legend>Reasons (optional; the note explains)</legend>
          {DECLINE_REASONS.map((r) => (
            <label key={r}>
              <input
                type="checkbox"
                checked={reasons.includes(r)}
                onChange={(e) => setReasons(e.currentTarget.checked ? [...reasons, r] : reasons.filter((x) => x !== r))}
              />{' '}
              {DECLINE_REASON_WORDS[r]}
            </label>
          ))}
        </fieldset>
      )}
      {decision === 'approve' && <ZoneField value={review.zone} onInput={review.editZone} refused={review.zoneError} first={first} />}
      <label for="note">
        Note (why; at least {MIN_NOTE} characters; <kbd>Enter</kbd> submits, <kbd>Shift</kbd>+<kbd>Enter</kbd> new line)
      </label>
      <textarea
        id="note"
        rows={3}
        value={note}
        aria-describedby="note-count"
        aria-invalid={note.length > 0 && !noteOk}
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      <p id="note-count" class={noteOk ? 'count ok' : 'count'} aria-live="polite">
        {noteOk ? `${noteLength} characters` : `${noteLength} of ${MIN_NOTE} characters — too short`}
      </p>
      <button type="submit" disabled={review.busy}>
        {review.busy ? 'Submitting…' : 'Submit decision'}
      </button>
      {review.error && <ErrorNote message={review.error} />}
    </form>
  );
}
