import { useRef } from 'preact/hooks';
import { decisionReasonText } from './decision-reasons.js';
import { localTime, navigate } from './lib.js';
import { flash, nextInQueue, queueIds, useReviewCase, type CaseInReview as Case, type ReviewCaseState } from './review-case-state.js';
import { ClaimPanel } from './review-claim.js';
import { DecisionForm } from './review-decision.js';
import { AuditTrail, OtherSignals, UsedBy } from './review-case-record.js';
import { Evidence, type EvidenceImage } from './review-evidence.js';
import { faceCards } from './review-faces.js';
import { FaceComparison, SignalList } from './review-faces-view.js';
import { describeSignals } from './review-signals.js';
import { StandingNotice } from './review-standing.js';
import { ZoneComparison, ZonePanel } from './review-zone-view.js';
import { ReviewerNav } from './reviewer.js';
import { typingInField, useShortcuts } from './shortcuts.js';
import { Async, Link, Notice, Shell } from './ui.js';

/**
 * A case in review, built for comparing: its facts and standing, the faces side by side (or the
 * frames and signals when face checks are off), the document with its zone, the audit trail, and
 * the decision panel. Its state (the case, the decision being made) is useReviewCase's.
 */
export function ReviewCase({ id }: { id: string }) {
  const review = useReviewCase(id);
  useCaseShortcuts(id, review);
  return (
    <Shell title={`Case ${id.slice(0, 8)}`} nav={<ReviewerNav />}>
      {flash.value?.on === id && <Notice kind={flash.value.kind}>{flash.value.text}</Notice>}
      <Async state={review.state}>
        {(c) => {
          const { document, frames } = caseImages(c);
          const faces = faceCards(c.signals) !== null;
          return (
            <div class="case-layout">
              <div>
                <CaseFacts id={id} c={c} />
                <StandingNotice standing={c} decidedByYou={c.decided_by_you} />
                {c.status === 'manual_review' && <ClaimPanel id={id} claim={c.claim} saved={review.state.reload} />}
                {c.document_used_by.length > 0 && <UsedBy others={c.document_used_by} />}
                {faces && (
                  <section aria-labelledby="faces-h">
                    <h2 id="faces-h">Faces side by side</h2>
                    <SignalList lines={describeSignals(c.signals).filter((l) => !l.label.startsWith('Step '))} testId="signals" />
                    <FaceComparison
                      signals={c.signals}
                      document={document}
                      frame={(step) => frames.find((f) => f.key === `step-${step}`)}
                    />
                  </section>
                )}
                <DocumentSection c={c} front={document} />
                {!faces && (
                  <section aria-labelledby="images-h">
                    <h2 id="images-h">Frames</h2>
                    <Evidence images={frames} />
                    <OtherSignals signals={c.signals} />
                  </section>
                )}
                <AuditTrail audit={c.audit} />
              </div>
              <aside class="decide-panel" aria-label="Decision panel">
                {c.status === 'manual_review' && !c.decided_by_you ? (
                  <DecisionForm review={review} first={c.first_approval} />
                ) : (
                  c.status !== 'manual_review' && <Notice>This case is {c.status}: there is nothing to decide.</Notice>
                )}
              </aside>
            </div>
          );
        }}
      </Async>
    </Shell>
  );
}

/**
 * The case page's keys: j/k the next and previous case in the queue as last loaded, a/d choose
 * approve or decline and go to the note, Enter in the note submits.
 */
function useCaseShortcuts(id: string, review: ReviewCaseState) {
  const listRef = useRef(queueIds.value);
  listRef.current = queueIds.value;
  useShortcuts((e) => {
    // Enter in the note submits; in the zone field it starts the next line of the zone.
    if (e.key === 'Enter' && !e.shiftKey && (e.target as HTMLElement).id === 'note') {
      e.preventDefault();
      void review.submit();
      return;
    }
    if (typingInField(e)) return;
    const ids = listRef.current;
    const at = ids.indexOf(id);
    if (e.key === 'j' && at >= 0 && ids[at + 1]) navigate(`/console/review/${ids[at + 1]}`);
    else if (e.key === 'k' && at > 0) navigate(`/console/review/${ids[at - 1]}`);
    else if (e.key === 'a' || e.key === 'd') {
      e.preventDefault();
      review.choose(e.key === 'a' ? 'approve' : 'decline');
      document.getElementById('note')?.focus();
    }
  });
}

/** The document's front (the side with the portrait) and the selfie frames, as the evidence viewers show them. */
function caseImages(c: Case): { document: EvidenceImage; frames: EvidenceImage[] } {
  return {
    document: {
      key: 'document',
      caption: c.document.back ? 'Document, front' : 'Document',
      url: c.document.image_url,
      alt: c.document.back ? 'Identity document, front (the side with the portrait)' : 'Identity document',
      size: c.document.width ? `${c.document.width}×${c.document.height}` : null,
    },
    frames: c.steps.map((st) => ({
      key: `step-${st.step}`,
      caption: `Step ${st.step + 1}: ${st.instruction}${st.pose ? ` (pose: ${st.pose})` : ''}`,
      url: st.image_url,
      alt: `Selfie frame for step ${st.step + 1}: ${st.instruction}`,
      size: st.width ? `${st.width}×${st.height}` : null,
    })),
  };
}

/** Status, reason, reference and age, beside the way on to the next case. */
function CaseFacts({ id, c }: { id: string; c: Case }) {
  return (
    <div class="case-head">
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="case-status">{c.status}</dd>
        <dt>Reason</dt>
        <dd>{decisionReasonText(c.reason)}</dd>
        <dt>Customer reference</dt>
        <dd data-testid="case-reference">{c.reference ?? '—'}</dd>
        <dt>Created</dt>
        <dd>{localTime(c.created_at)}</dd>
      </dl>
      <NextCase id={id} />
    </div>
  );
}

/** "Next case" in the queue as last loaded (j), or back to the queue when this is the last. */
function NextCase({ id }: { id: string }) {
  const next = nextInQueue(id);
  return next ? (
    <Link class="button" href={`/console/review/${next}`} data-testid="next-case">
      Next case ({next.slice(0, 8)}) <kbd>j</kbd>
    </Link>
  ) : (
    <Link class="button" href="/console/review">
      Back to the queue
    </Link>
  );
}

/** The document's sides beside the zone read from it, and under them the first approval's zone where one was confirmed. */
function DocumentSection({ c, front }: { c: Case; front: EvidenceImage }) {
  const back = c.document.back;
  return (
    <section aria-labelledby="document-h">
      <h2 id="document-h">Document</h2>
      <div class="document-row">
        <Evidence
          images={[
            front,
            ...(back
              ? [
                  {
                    key: 'document-back',
                    caption: 'Document, back',
                    url: back.image_url,
                    alt: 'Identity document, back (the side with the machine-readable zone)',
                    size: back.width ? `${back.width}×${back.height}` : null,
                  },
                ]
              : []),
          ]}
        />
        <section aria-labelledby="mrz-h" class="zone-panel">
          <h2 id="mrz-h">Machine-readable zone</h2>
          <ZonePanel zone={c.document.mrz} />
        </section>
      </div>
      {c.first_approval && <ZoneComparison first={c.first_approval} read={c.document.mrz?.lines ?? ''} />}
    </section>
  );
}
