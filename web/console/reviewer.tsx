import { Fragment } from 'preact';
import { ListTable } from './list-table.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { age, client, localTime, navigate, reviewerKey, unwrap, useLoad } from './lib.js';
import { Async, focusPageHeading, Link, Notice, Shell } from './ui.js';
import { StandingNotice, standingLabel, whoDecided } from './review-standing.js';
import { Evidence, type EvidenceImage } from './review-evidence.js';
import { describeSignals } from './review-signals.js';
import { ClaimHolder, ClaimPanel } from './review-claim.js';
import { ConsoleNav, SignIn } from './sign-in.js';
import { decisionReasonText } from './decision-reasons.js';
import { ZoneComparison, ZonePanel } from './review-zone-view.js';
import { flash, nextInQueue, queueIds, useReviewCase } from './review-case-state.js';
import { DecisionForm } from './review-decision.js';
import { FaceComparison, SignalList } from './review-faces-view.js';
import { faceCards } from './review-faces.js';

function ReviewerNav() {
  return <ConsoleNav links={[['/console/review', 'Queue']]} credential={reviewerKey} home="/console/review" />;
}

export function ReviewerSignIn() {
  return (
    <SignIn
      title="Reviewer sign-in"
      intro={
        <>
          Sign in with an identity <strong>reviewer</strong> API key.
        </>
      }
      label="Reviewer API key"
      inputId="reviewer-key"
      credential={reviewerKey}
      check={(token) => unwrap(client(token).GET('/v1/review'))}
    />
  );
}

function useKeys(handler: (e: KeyboardEvent) => void) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listen = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      ref.current(e);
    };
    window.addEventListener('keydown', listen);
    return () => window.removeEventListener('keydown', listen);
  }, []);
}
const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');
};

export function ReviewQueue() {
  const api = client(reviewerKey.value);
  const state = useLoad(() => unwrap(api.GET('/v1/review')), []);
  const [selected, setSelected] = useState(0);
  const items = state.data?.items ?? [];
  useEffect(() => {
    queueIds.value = items.map((i) => i.id);
  }, [state.data]);
  useKeys((e) => {
    if (typing(e) || items.length === 0) return;
    if (e.key === 'j') setSelected((s) => Math.min(items.length - 1, s + 1));
    else if (e.key === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (e.key === 'Enter' && items[selected] && (e.target as HTMLElement).tagName !== 'A')
      navigate(`/console/review/${items[selected]!.id}`);
  });
  useEffect(() => {
    document.getElementById(`case-${selected}`)?.focus();
  }, [selected]);
  // After the last decision the reader lands here: on the heading, with what happened beneath it.
  useEffect(() => {
    if (flash.value?.on === 'queue') focusPageHeading();
  }, []);
  return (
    <Shell title="Review queue" nav={<ReviewerNav />}>
      {flash.value?.on === 'queue' && <Notice kind={flash.value.kind}>{flash.value.text}</Notice>}
      <p class="hint">
        Oldest first. Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>Enter</kbd> open.
      </p>
      <Async state={state}>
        {(data) =>
          data.items.length === 0 ? (
            <Notice>The queue is empty: nothing waits for a decision.</Notice>
          ) : (
            <>
              <p data-testid="queue-count">
                <strong>{data.items.length}</strong> {data.items.length === 1 ? 'case waits' : 'cases wait'} for a decision.{' '}
                <Link href={`/console/review/${data.items[0]!.id}`}>Open the oldest</Link>
              </p>
              <ListTable
                caption="Verifications waiting for a decision"
                rows={data.items}
                rowKey={(item) => item.id}
                rowAttrs={(_, i) => ({ class: i === selected ? 'selected' : '' })}
                columns={[
                  {
                    label: 'Case',
                    cell: (item, i) => (
                      <Link id={`case-${i}`} href={`/console/review/${item.id}`}>
                        {item.id.slice(0, 8)}
                      </Link>
                    ),
                  },
                  { label: 'Customer reference', cell: (item) => item.reference ?? '—' },
                  { label: 'Reason', cell: (item) => decisionReasonText(item.reason) },
                  {
                    label: 'Review',
                    cell: (item) => (
                      <>
                        {standingLabel(item)}
                        {item.decisions.length > 0 && <span class="muted"> — {item.decisions.map(whoDecided).join('; ')}</span>}
                        {item.claim && <ClaimHolder claim={item.claim} />}
                      </>
                    ),
                  },
                  { label: 'Waiting', cell: (item) => age(item.updated_at) },
                  { label: 'Created', cell: (item) => localTime(item.created_at) },
                ]}
              />
            </>
          )
        }
      </Async>
    </Shell>
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

export function ReviewCase({ id }: { id: string }) {
  const review = useReviewCase(id);
  const { state } = review;
  const listRef = useRef(queueIds.value);
  listRef.current = queueIds.value;

  useKeys((e) => {
    // Enter in the note submits; in the zone field it starts the next line of the zone.
    if (e.key === 'Enter' && !e.shiftKey && (e.target as HTMLElement).id === 'note') {
      e.preventDefault();
      void review.submit();
      return;
    }
    if (typing(e)) return;
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

  return (
    <Shell title={`Case ${id.slice(0, 8)}`} nav={<ReviewerNav />}>
      {flash.value?.on === id && <Notice kind={flash.value.kind}>{flash.value.text}</Notice>}
      <Async state={state}>
        {(c) => {
          const documentImage: EvidenceImage = {
            key: 'document',
            caption: c.document.back ? 'Document, front' : 'Document',
            url: c.document.image_url,
            alt: c.document.back ? 'Identity document, front (the side with the portrait)' : 'Identity document',
            size: c.document.width ? `${c.document.width}×${c.document.height}` : null,
          };
          const frames: EvidenceImage[] = c.steps.map((st) => ({
            key: `step-${st.step}`,
            caption: `Step ${st.step + 1}: ${st.instruction}${st.pose ? ` (pose: ${st.pose})` : ''}`,
            url: st.image_url,
            alt: `Selfie frame for step ${st.step + 1}: ${st.instruction}`,
            size: st.width ? `${st.width}×${st.height}` : null,
          }));
          const faces = faceCards(c.signals) !== null;
          return (
            <div class="case-layout">
              <div>
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
                <StandingNotice standing={c} decidedByYou={c.decided_by_you} />
                {c.status === 'manual_review' && <ClaimPanel id={id} claim={c.claim} saved={state.reload} />}
                {c.document_used_by.length > 0 && <UsedBy others={c.document_used_by} />}
                {faces && (
                  <section aria-labelledby="faces-h">
                    <h2 id="faces-h">Faces side by side</h2>
                    <SignalList lines={describeSignals(c.signals).filter((l) => !l.label.startsWith('Step '))} testId="signals" />
                    <FaceComparison
                      signals={c.signals}
                      document={documentImage}
                      frame={(step) => frames.find((f) => f.key === `step-${step}`)}
                    />
                  </section>
                )}
                <section aria-labelledby="document-h">
                  <h2 id="document-h">Document</h2>
                  <div class="document-row">
                    <Evidence
                      images={[
                        documentImage,
                        ...(c.document.back
                          ? [
                              {
                                key: 'document-back',
                                caption: 'Document, back',
                                url: c.document.back.image_url,
                                alt: 'Identity document, back (the side with the machine-readable zone)',
                                size: c.document.back.width ? `${c.document.back.width}×${c.document.back.height}` : null,
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
                {!faces && (
                  <section aria-labelledby="images-h">
                    <h2 id="images-h">Frames</h2>
                    <Evidence images={frames} />
                    <Signals signals={c.signals} />
                  </section>
                )}
                <section aria-labelledby="audit-h">
                  <h2 id="audit-h">Audit trail</h2>
                  <ol class="audit">
                    {c.audit.map((e, i) => (
                      <li key={i}>
                        <time dateTime={e.at}>{localTime(e.at)}</time> <code>{e.type}</code>{' '}
                        <span class="actor">
                          {e.actor_name ? (
                            <>
                              <strong>{e.actor_name}</strong> ({e.actor})
                            </>
                          ) : (
                            e.actor
                          )}
                        </span>
                      </li>
                    ))}
                  </ol>
                </section>
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

/** Other verifications of the same document: links to those reviewers may open. */
function UsedBy({ others }: { others: { id: string; status: string; created_at: string; in_reach: boolean }[] }) {
  return (
    <section aria-labelledby="reused-h">
      <h2 id="reused-h">The same document was used by</h2>
      <ul data-testid="document-used-by">
        {others.map((o) => (
          <li key={o.id}>
            {o.in_reach ? <Link href={`/console/review/${o.id}`}>Case {o.id.slice(0, 8)}</Link> : <code>{o.id.slice(0, 8)}</code>} —{' '}
            {o.status}, started {localTime(o.created_at)}
            {!o.in_reach && <span class="muted"> (not open to reviewers)</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Signals that are not face signals (face checks off), as measured. */
function Signals({ signals }: { signals: Record<string, unknown> }) {
  const entries = Object.entries(signals);
  return (
    <>
      <h3>Signals</h3>
      {entries.length === 0 ? (
        <p>No signals were measured.</p>
      ) : (
        <dl class="facts" data-testid="signals">
          {entries.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </>
  );
}
