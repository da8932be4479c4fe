import { Fragment } from 'preact';
import { signal } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { age, client, localTime, navigate, reviewerKey, statusOf, unwrap, useLoad } from './lib.js';
import { Async, ErrorNote, focusPageHeading, Link, Notice, Shell } from './ui.js';
import { StandingNotice, standingLabel, whoDecided } from './review-standing.js';
import { Evidence } from './review-evidence.js';
import { describeSignals } from './review-signals.js';
import { ClaimHolder, ClaimPanel } from './review-claim.js';
import { ConsoleNav, SignIn } from './sign-in.js';
import { DECLINE_REASON_WORDS, DECLINE_REASONS, type DeclineReason } from './decline-reasons.js';
import { decisionReasonText } from './decision-reasons.js';
import { ZoneComparison, ZoneField, ZonePanel } from './review-zone-view.js';
import { zoneProblems } from './review-zone.js';

/** The minimum note length, as the server checks it (after trimming). */
const MIN_NOTE = 20;

/** What the next screen says after a decision or a lost race: `on` is the case id it is shown on, or 'queue'. */
const flash = signal<{ kind: 'ok' | 'warn'; text: string; on: string } | null>(null);
/** The queue as last loaded: j/k on a case page move through it. */
const queueIds = signal<string[]>([]);

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
            <table class="list">
              <caption class="sr-only">Verifications waiting for a decision</caption>
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Review</th>
                  <th scope="col">Waiting</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((item, i) => (
                  <tr key={item.id} class={i === selected ? 'selected' : ''}>
                    <td>
                      <Link id={`case-${i}`} href={`/console/review/${item.id}`}>
                        {item.id.slice(0, 8)}
                      </Link>
                    </td>
                    <td>{decisionReasonText(item.reason)}</td>
                    <td>
                      {standingLabel(item)}
                      {item.decisions.length > 0 && <span class="muted"> — {item.decisions.map(whoDecided).join('; ')}</span>}
                      {item.claim && <ClaimHolder claim={item.claim} />}
                    </td>
                    <td>{age(item.updated_at)}</td>
                    <td>{localTime(item.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Async>
    </Shell>
  );
}

/** Moves on to the next case in the queue (or the queue when none is left), saying there what happened. */
function afterDecision(id: string, text: string, kind: 'ok' | 'warn') {
  const next = queueIds.value.filter((q) => q !== id);
  queueIds.value = next;
  flash.value = { kind, text, on: next[0] ?? 'queue' };
  navigate(next[0] ? `/console/review/${next[0]}` : '/console/review');
}

export function ReviewCase({ id }: { id: string }) {
  const api = useMemo(() => client(reviewerKey.value), []);
  const state = useLoad(() => unwrap(api.GET('/v1/review/{id}', { params: { path: { id } } })), [id]);
  const [decision, setDecision] = useState<'approve' | 'decline' | null>(null);
  const [note, setNote] = useState('');
  const [reasons, setReasons] = useState<DeclineReason[]>([]);
  /** The zone the reviewer confirms with an approval; null until edited (then it is what was read). */
  const [zone, setZone] = useState<string | null>(null);
  /** Why the service refused the zone sent, shown under the zone field. */
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const noteLength = note.trim().length;
  const noteOk = noteLength >= MIN_NOTE;
  useEffect(() => {
    setDecision(null);
    setNote('');
    setReasons([]);
    setZone(null);
    setZoneError(null);
    setError(null);
    // Focus leaves the note box for this case's heading, so the next keys are commands, not text.
    if (flash.value?.on === id) focusPageHeading();
  }, [id]);

  async function submit() {
    setError(null);
    setZoneError(null);
    if (!decision) return setError('Choose approve or decline.');
    if (!noteOk) return setError(`The note needs at least ${MIN_NOTE} characters (now ${noteLength}).`);
    // With an approval, the zone as confirmed or corrected (prefilled with what was read); an emptied field sends none.
    const mrz = decision === 'approve' ? (zone ?? zoneRead(state.data?.document.mrz)).trim() : '';
    setBusy(true);
    try {
      const result = await unwrap(
        api.POST('/v1/review/{id}', {
          params: { path: { id } },
          body: {
            decision,
            note,
            ...(decision === 'decline' && reasons.length ? { decline_reasons: reasons } : {}),
            ...(mrz ? { mrz } : {}),
          },
        }),
      );
      const final = result.verification.status !== 'manual_review';
      const done = decision === 'approve' ? 'approved' : 'declined';
      afterDecision(id, `Case ${id.slice(0, 8)}: ${final ? done : `you ${done}; another reviewer decides next`}.`, 'ok');
    } catch (err) {
      if (statusOf(err) === 409) await refusedInReview(err);
      else if (statusOf(err) === 422 && mrz) {
        setZoneError(zoneRefused(mrz, err));
        // Back to the zone, which the reviewer corrects next (the panel may have scrolled it away).
        document.getElementById('zone')?.focus();
      } else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  /**
   * A 409: the case was decided by someone else (move on), or it is still in review and the
   * service said why not (four-eyes review: another key of this holder decided it, or the zone is
   * not the first approval's); then its detail is shown where the reviewer acts on it.
   */
  async function refusedInReview(err: unknown) {
    const detail = err instanceof Error ? err.message : String(err);
    const now = await unwrap(api.GET('/v1/review/{id}', { params: { path: { id } } })).catch(() => null);
    if (!now || now.status !== 'manual_review') return afterDecision(id, `Case ${id.slice(0, 8)} was already decided: moved on.`, 'warn');
    if (now.decided_by_you) flash.value = { kind: 'warn', text: detail, on: id };
    else if (decision === 'approve' && now.first_approval) {
      setZoneError(detail);
      document.getElementById('zone')?.focus();
    } else setError(detail);
    state.reload();
  }

  useKeys((e) => {
    // Enter in the note submits; in the zone field it starts the next line of the zone.
    if (e.key === 'Enter' && !e.shiftKey && (e.target as HTMLElement).id === 'note') {
      e.preventDefault();
      void submit();
      return;
    }
    if (typing(e)) return;
    const ids = queueIds.value;
    const at = ids.indexOf(id);
    if (e.key === 'j' && at >= 0 && ids[at + 1]) navigate(`/console/review/${ids[at + 1]}`);
    else if (e.key === 'k' && at > 0) navigate(`/console/review/${ids[at - 1]}`);
    else if (e.key === 'a' || e.key === 'd') {
      e.preventDefault();
      setDecision(e.key === 'a' ? 'approve' : 'decline');
      document.getElementById('note')?.focus();
    }
  });

  return (
    <Shell title={`Case ${id.slice(0, 8)}`} nav={<ReviewerNav />}>
      {flash.value?.on === id && <Notice kind={flash.value.kind}>{flash.value.text}</Notice>}
      <Async state={state}>
        {(c) => (
          <div class="case-layout">
            <div>
              <dl class="facts">
                <dt>Status</dt>
                <dd data-testid="case-status">{c.status}</dd>
                <dt>Reason</dt>
                <dd>{decisionReasonText(c.reason)}</dd>
                <dt>Reference</dt>
                <dd>{c.reference ?? '—'}</dd>
                <dt>Created</dt>
                <dd>{localTime(c.created_at)}</dd>
              </dl>
              <StandingNotice standing={c} decidedByYou={c.decided_by_you} />
              {c.status === 'manual_review' && <ClaimPanel id={id} claim={c.claim} saved={state.reload} />}
              {c.document_used_by.length > 0 && (
                <section aria-labelledby="reused-h">
                  <h2 id="reused-h">The same document was used by</h2>
                  <ul data-testid="document-used-by">
                    {c.document_used_by.map((o) => (
                      <li key={o.id}>
                        {o.in_reach ? (
                          <Link href={`/console/review/${o.id}`}>Case {o.id.slice(0, 8)}</Link>
                        ) : (
                          <code>{o.id.slice(0, 8)}</code>
                        )}{' '}
                        — {o.status}, started {localTime(o.created_at)}
                        {!o.in_reach && <span class="muted"> (not open to reviewers)</span>}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
              <section aria-labelledby="document-h">
                <h2 id="document-h">Document</h2>
                <div class="document-row">
                  <Evidence
                    images={[
                      {
                        key: 'document',
                        caption: c.document.back ? 'Document, front' : 'Document',
                        url: c.document.image_url,
                        alt: c.document.back ? 'Identity document, front (the side with the portrait)' : 'Identity document',
                        size: c.document.width ? `${c.document.width}×${c.document.height}` : null,
                      },
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
              <section aria-labelledby="images-h">
                <h2 id="images-h">Frames</h2>
                <Evidence
                  images={[
                    ...c.steps.map((st) => ({
                      key: `step-${st.step}`,
                      caption: `Step ${st.step + 1}: ${st.instruction}${st.pose ? ` (pose: ${st.pose})` : ''}`,
                      url: st.image_url,
                      alt: `Selfie frame for step ${st.step + 1}: ${st.instruction}`,
                      size: st.width ? `${st.width}×${st.height}` : null,
                    })),
                  ]}
                />
              </section>
              <div class="columns">
                <section aria-label="Signals">
                  <Signals signals={c.signals} />
                </section>
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
            </div>
            <aside class="decide-panel" aria-label="Decision panel">
              {c.status === 'manual_review' && !c.decided_by_you ? (
                <form
                  ref={form}
                  class="form decide"
                  aria-label="Decision"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void submit();
                  }}
                >
                  <h2>Decision</h2>
                  <fieldset>
                    <legend>
                      Decision (keys <kbd>a</kbd> / <kbd>d</kbd>)
                    </legend>
                    <label>
                      <input
                        type="radio"
                        name="decision"
                        value="approve"
                        checked={decision === 'approve'}
                        onChange={() => setDecision('approve')}
                      />{' '}
                      Approve
                    </label>
                    <label>
                      <input
                        type="radio"
                        name="decision"
                        value="decline"
                        checked={decision === 'decline'}
                        onChange={() => setDecision('decline')}
                      />{' '}
                      Decline
                    </label>
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
                  {decision === 'approve' && (
                    <ZoneField
                      value={zone ?? zoneRead(c.document.mrz)}
                      onInput={(v) => (setZone(v), setZoneError(null))}
                      refused={zoneError}
                      first={c.first_approval}
                    />
                  )}
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
                  <button type="submit" disabled={busy}>
                    {busy ? 'Submitting…' : 'Submit decision'}
                  </button>
                  {error && <ErrorNote message={error} />}
                </form>
              ) : (
                c.status !== 'manual_review' && <Notice>This case is {c.status}: there is nothing to decide.</Notice>
              )}
            </aside>
          </div>
        )}
      </Async>
    </Shell>
  );
}

/** The pipeline's face signals in words against their thresholds; other signals as measured. */
function Signals({ signals }: { signals: Record<string, unknown> }) {
  const lines = describeSignals(signals);
  return (
    <>
      <h2>Signals</h2>
      {lines.length > 0 ? (
        <ul class="signals" data-testid="signals">
          {lines.map((l) => (
            <li key={l.label} class={l.passes === null ? '' : l.passes ? 'pass' : 'fail'}>
              <strong>{l.label}</strong> {l.text}
              {l.passes !== null && <span class="sr-only">{l.passes ? ' (passes)' : ' (does not pass)'}</span>}
            </li>
          ))}
        </ul>
      ) : Object.keys(signals).length === 0 ? (
        <p>No signals were measured.</p>
      ) : (
        <dl class="facts">
          {Object.entries(signals).map(([k, v]) => (
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

/** What the reading saw (the zone's lines), to prefill the field the reviewer confirms or corrects. */
function zoneRead(mrz: Record<string, string | null> | null | undefined): string {
  return mrz?.lines ?? '';
}

/** The service refused the zone sent with an approval: why, in words, and what to do. */
function zoneRefused(mrz: string, err: unknown): string {
  const why = zoneProblems(mrz);
  const detail = why.length ? why.join(' ') : err instanceof Error ? err.message : String(err);
  return `Not approved: the service did not accept the machine-readable zone. ${detail} Correct it from the document image, or empty the field to approve without a zone.`;
}
