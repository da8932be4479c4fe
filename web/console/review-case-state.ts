import { signal } from '@preact/signals';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { client, navigate, reviewerKey, statusOf, unwrap, useLoad } from './lib.js';
import { focusPageHeading } from './ui.js';
import type { DeclineReason } from './decline-reasons.js';
import { forgetCaseImages } from './review-evidence.js';
import { zoneConflictWords, zoneProblems } from './review-zone.js';

/** The minimum note length, as the server checks it (after trimming). */
export const MIN_NOTE = 20;

/** What the next screen says after a decision or a lost race: `on` is the case id it is shown on, or 'queue'. */
export const flash = signal<{ kind: 'ok' | 'warn'; text: string; on: string } | null>(null);
/** The queue as last loaded: j/k and "Next case" on a case page move through it. */
export const queueIds = signal<string[]>([]);

/** The case after `id` in the queue as last loaded (the first other one when `id` is not in it), or null. */
export function nextInQueue(id: string): string | null {
  const ids = queueIds.value;
  const at = ids.indexOf(id);
  return (at >= 0 ? ids[at + 1] : ids.find((q) => q !== id)) ?? null;
}

/** Moves on to the next case in the queue (or the queue when none is left), saying there what happened. */
function afterDecision(id: string, text: string, kind: 'ok' | 'warn') {
  const next = queueIds.value.filter((q) => q !== id);
  queueIds.value = next;
  flash.value = { kind, text, on: next[0] ?? 'queue' };
  navigate(next[0] ? `/console/review/${next[0]}` : '/console/review');
}

/** What the reading saw (the zone's lines), to prefill the field the reviewer confirms or corrects. */
export function zoneRead(mrz: Record<string, string | null> | null | undefined): string {
  return mrz?.lines ?? '';
}

/** The service refused the zone sent with an approval: why, in words, and what to do. */
function zoneRefused(mrz: string, err: unknown): string {
  const why = zoneProblems(mrz);
  const detail = why.length ? why.join(' ') : err instanceof Error ? err.message : String(err);
  return `Not approved: the service did not accept the machine-readable zone. ${detail} Correct it from the document image, or empty the field to approve without a zone.`;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A case page's state: the case as loaded, and the decision being made on it (approve or
 * decline, the note, decline reasons, the zone confirmed with an approval) with its submission
 * and the service's answers. Everything starts afresh when another case opens.
 */
export function useReviewCase(id: string) {
  const api = useMemo(() => client(reviewerKey.value), []);
  const state = useLoad(() => unwrap(api.GET('/v1/review/{id}', { params: { path: { id } } })), [id]);
  const [decision, setDecision] = useState<'approve' | 'decline' | null>(null);
  const [note, setNote] = useState('');
  const [reasons, setReasons] = useState<DeclineReason[]>([]);
  /** The zone the reviewer confirms with an approval; null until edited (then it is what was read). */
  const [zoneEdit, setZoneEdit] = useState<string | null>(null);
  /** Why the service refused the zone sent, shown under the zone field. */
  const [zoneError, setZoneError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const noteLength = note.trim().length;
  const noteOk = noteLength >= MIN_NOTE;
  const zone = zoneEdit ?? zoneRead(state.data?.document.mrz);

  useEffect(() => {
    setDecision(null);
    setNote('');
    setReasons([]);
    setZoneEdit(null);
    setZoneError(null);
    setError(null);
    // Focus leaves the note box for this case's heading, so the next keys are commands, not text.
    if (flash.value?.on === id) focusPageHeading();
    return forgetCaseImages;
  }, [id]);

  /** Back to the zone, which the reviewer corrects next (the panel may have scrolled it away). */
  const refuseZone = (why: string) => {
    setZoneError(why);
    document.getElementById('zone')?.focus();
  };

  /**
   * A 409: the case was decided by someone else (move on), or it is still in review and the
   * service said why not (four-eyes review: another key of this holder decided it, or the zone is
   * not the first approval's); then its detail is shown, in words, where the reviewer acts on it.
   */
  async function refusedInReview(err: unknown) {
    const detail = messageOf(err);
    const now = await unwrap(api.GET('/v1/review/{id}', { params: { path: { id } } })).catch(() => null);
    if (!now || now.status !== 'manual_review') return afterDecision(id, `Case ${id.slice(0, 8)} was already decided: moved on.`, 'warn');
    if (now.decided_by_you) flash.value = { kind: 'warn', text: detail, on: id };
    else if (decision === 'approve' && now.first_approval) refuseZone(zoneConflictWords(detail));
    else setError(detail);
    state.reload();
  }

  async function submit() {
    setError(null);
    setZoneError(null);
    if (!decision) return setError('Choose approve or decline.');
    if (!noteOk) return setError(`The note needs at least ${MIN_NOTE} characters (now ${noteLength}).`);
    // With an approval, the zone as confirmed or corrected (prefilled with what was read); an emptied field sends none.
    const mrz = decision === 'approve' ? zone.trim() : '';
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
      else if (statusOf(err) === 422 && mrz) refuseZone(zoneRefused(mrz, err));
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return {
    state,
    decision,
    choose: setDecision,
    note,
    setNote,
    noteLength,
    noteOk,
    reasons,
    setReasons,
    zone,
    editZone: (value: string) => (setZoneEdit(value), setZoneError(null)),
    zoneError,
    busy,
    error,
    submit,
  };
}

export type ReviewCaseState = ReturnType<typeof useReviewCase>;
/** A case as the review API answers it. */
export type CaseInReview = NonNullable<ReviewCaseState['state']['data']>;
