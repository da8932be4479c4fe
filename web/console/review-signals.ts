/**
 * The pipeline's face signals in words, each against the threshold it was decided by (the
 * thresholds are stored with the signals: FACE_MATCH_LOW/HIGH at the time of the run, see the
 * docs/faces.md, "Face checks"). Pure, so it is tested without a browser.
 */

interface Thresholds {
  match_low: number;
  match_high: number;
  yaw_turn: number;
  yaw_front: number;
}
/** A face as the signals keep it: `box` is [x, y, width, height] in pixels of the analysed image (absent in older signals). */
export interface SignalFace {
  box?: [number, number, number, number];
  yaw: number | null;
  antispoof: number | null;
  liveness: number | null;
}
/** The analysed image's size: the frame of `box` (the stored image may be larger). */
interface Analysed {
  width?: number;
  height?: number;
  face_count: number;
  faces?: SignalFace[];
}
export interface Frame extends Analysed {
  step: number;
  pose: 'front' | 'left' | 'right' | null;
  faces: SignalFace[];
  document_similarity: number | null;
}
export interface FaceSignals {
  document: Analysed;
  frames: Frame[];
  document_similarity: number | null;
  frame_consistency: { min: number | null; mean: number | null };
  thresholds: Thresholds;
}

export interface SignalLine {
  /** What was measured, e.g. "Face match". */
  label: string;
  /** The figure against its threshold, in words. */
  text: string;
  /** Whether the figure alone would pass the rule (null when there is no rule for it). */
  passes: boolean | null;
}

const two = (n: number) => n.toFixed(2);
const degrees = (rad: number) => `${Math.round((rad * 180) / Math.PI)}°`;

export function isFaceSignals(s: Record<string, unknown>): s is Record<string, unknown> & FaceSignals {
  const t = s.thresholds as Partial<Thresholds> | undefined;
  return typeof t?.match_high === 'number' && typeof t.match_low === 'number' && Array.isArray(s.frames) && typeof s.document === 'object';
}

export function poseLine(f: Frame, t: Thresholds): SignalLine | null {
  if (!f.pose) return null;
  const yaw = f.faces[0]?.yaw ?? null;
  const label = `Step ${f.step + 1} head turn`;
  if (yaw === null) return { label, text: 'no head turn measured (no face)', passes: false };
  // Negative yaw is the person's own left (src/recognition/faces/signals.ts).
  const side = Math.abs(yaw) < 1e-9 ? 'straight' : yaw < 0 ? 'to their left' : 'to their right';
  const turned = `${degrees(Math.abs(yaw))} ${side}`;
  if (f.pose === 'front') {
    const ok = Math.abs(yaw) <= t.yaw_front;
    return { label, text: `${turned} — must face the camera (within ${degrees(t.yaw_front)})`, passes: ok };
  }
  const ok = f.pose === 'left' ? yaw <= -t.yaw_turn : yaw >= t.yaw_turn;
  return { label, text: `${turned} — asked to turn ${f.pose}, at least ${degrees(t.yaw_turn)}`, passes: ok };
}

/**
 * A similarity to the document's face against the match thresholds: the case's figure (the
 * median of the frames') decides; a frame's own figure shows which frame pulls it down.
 */
export function matchLine(label: string, m: number | null, t: Thresholds, missing: string): SignalLine {
  if (m === null) return { label, text: `not measured: ${missing}`, passes: false };
  if (m >= t.match_high) return { label, text: `${two(m)} — at or above ${two(t.match_high)}, enough to approve`, passes: true };
  if (m < t.match_low) return { label, text: `${two(m)} — below ${two(t.match_low)}, a mismatch`, passes: false };
  return { label, text: `${two(m)} — needs ${two(t.match_high)} to approve (below ${two(t.match_low)} declines)`, passes: false };
}

/** One line per signal; empty when the signals are not face signals (face checks off, or none measured). */
export function describeSignals(signals: Record<string, unknown>): SignalLine[] {
  if (!isFaceSignals(signals)) return [];
  const t = signals.thresholds;
  const lines: SignalLine[] = [];
  lines.push(matchLine('Face match', signals.document_similarity, t, 'no face on the document or in the frames'));
  const faces = signals.document.face_count;
  lines.push({ label: 'Faces on the document', text: faces === 1 ? 'one' : `${faces} — needs exactly one`, passes: faces === 1 });
  for (const f of signals.frames) {
    if (f.face_count !== 1) {
      lines.push({ label: `Step ${f.step + 1} faces`, text: `${f.face_count} — needs exactly one`, passes: false });
    }
    const pose = poseLine(f, t);
    if (pose) lines.push(pose);
  }
  const c = signals.frame_consistency;
  if (c.min !== null) {
    lines.push({ label: 'Same person in every frame', text: `lowest similarity between frames ${two(c.min)}`, passes: null });
  }
  return lines;
}
