import type { FrameSource } from '../db/vocabulary.js';
import type { ImageAnalysis, Pose } from '../recognition/faces/signals.js';

/**
 * How the face checks decide (pure; see docs/faces.md, "Face checks"), on what the face analysis
 * measured. Only these numbers are stored with a verification (`signals`), never an image or a
 * face embedding.
 */

export interface FaceThresholds {
  matchLow: number;
  matchHigh: number;
  /** A `left`/`right` frame must turn at least this far (radians of yaw) the asked way. */
  yawTurn: number;
  /** A `front` frame may turn at most this far either way. */
  yawFront: number;
}

interface FrameSignals extends ImageAnalysis {
  step: number;
  /** null on a challenge issued before poses existed: such a frame is not checked for pose. */
  pose: Pose | null;
  /** `file` when the frame was chosen from the device because no camera could be used (docs/identity.md, "Consent and capture"); `camera` otherwise. */
  source: FrameSource;
  /** The largest face's similarity to the document's face (null when either has none). */
  document_similarity: number | null;
}

export interface FaceSignals {
  document: ImageAnalysis;
  frames: FrameSignals[];
  /** The figure the face-match rule compares with the thresholds: the median of the frames' document similarities. */
  document_similarity: number | null;
  /** Frame↔frame similarities of the largest faces: the same person throughout? */
  frame_consistency: { min: number | null; mean: number | null };
  thresholds: { match_low: number; match_high: number; yaw_turn: number; yaw_front: number };
  duration_ms: number;
}

export type FaceOutcome =
  | { status: 'declined'; reason: 'no_face_document' | 'no_face_selfie' | 'challenge_not_followed' | 'face_mismatch' }
  | { status: 'manual_review'; reason: 'multiple_faces' | 'face_match_uncertain' }
  | null;

/**
 * Whether a head rotation follows the step's pose. `left` means the person turns their head to
 * their own left: in the camera's unmirrored image the face turns toward the image's right edge,
 * which Human reports as negative yaw (measured on the fixtures and their mirrored copies).
 */
export function poseFollowed(pose: Pose, yaw: number | null, t: FaceThresholds): boolean {
  if (yaw === null) return false;
  if (pose === 'front') return Math.abs(yaw) <= t.yawFront;
  if (pose === 'left') return yaw <= -t.yawTurn;
  return yaw >= t.yawTurn;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round3 = (n: number) => Number(n.toFixed(3));

/** Assembles the stored signals from the worker's analyses (document first) and its pairwise similarities. */
export function buildSignals(
  images: ImageAnalysis[],
  similarity: (number | null)[][],
  steps: { step: number; pose: Pose | null; source?: FrameSource }[],
  t: FaceThresholds,
  durationMs: number,
): FaceSignals {
  const [document, ...frameImages] = images;
  const frames = frameImages.map((image, i) => ({
    step: steps[i]!.step,
    pose: steps[i]!.pose,
    source: steps[i]!.source ?? 'camera',
    ...image,
    document_similarity: similarity[0]?.[i + 1] ?? null,
  }));
  const toDocument = frames.map((f) => f.document_similarity).filter((s): s is number => s !== null);
  const between: number[] = [];
  for (let i = 1; i < images.length; i++)
    for (let j = i + 1; j < images.length; j++) {
      const s = similarity[i]?.[j];
      if (s !== null && s !== undefined) between.push(s);
    }
  const docSimilarity = median(toDocument);
  return {
    document: document!,
    frames,
    document_similarity: docSimilarity === null ? null : round3(docSimilarity),
    frame_consistency: {
      min: between.length ? Math.min(...between) : null,
      mean: between.length ? round3(between.reduce((a, b) => a + b, 0) / between.length) : null,
    },
    thresholds: { match_low: t.matchLow, match_high: t.matchHigh, yaw_turn: t.yawTurn, yaw_front: t.yawFront },
    duration_ms: durationMs,
  };
}

/**
 * The face rules, after the byte rules and in this order (documented in the OpenAPI):
 * no face in the document → declined `no_face_document`; a frame without a face → declined
 * `no_face_selfie`; more than one face in any image → manual_review `multiple_faces`; a frame
 * whose head pose contradicts its step → declined `challenge_not_followed`; the document↔selfie
 * similarity below the low threshold → declined `face_mismatch`, below the high one →
 * manual_review `face_match_uncertain`; otherwise null (no objection).
 */
export function decideFaces(s: FaceSignals, t: FaceThresholds): FaceOutcome {
  if (s.document.face_count === 0) return { status: 'declined', reason: 'no_face_document' };
  if (s.frames.some((f) => f.face_count === 0)) return { status: 'declined', reason: 'no_face_selfie' };
  if ([s.document, ...s.frames].some((i) => i.face_count > 1)) return { status: 'manual_review', reason: 'multiple_faces' };
  if (s.frames.some((f) => f.pose !== null && !poseFollowed(f.pose, f.faces[0]!.yaw, t)))
    return { status: 'declined', reason: 'challenge_not_followed' };
  const similarity = s.document_similarity ?? 0;
  if (similarity < t.matchLow) return { status: 'declined', reason: 'face_mismatch' };
  if (similarity < t.matchHigh) return { status: 'manual_review', reason: 'face_match_uncertain' };
  return null;
}
