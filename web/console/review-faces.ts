/**
 * The reviewer's face comparison, pure: where each face is in its stored image (the signals keep
 * the detector's box in pixels of the analysed, downscaled image) and, for each frame, its own
 * similarity to the document's face and its head turn against what the step asked. Tested
 * without a browser (test/web/review-faces.test.ts).
 */
import { isFaceSignals, matchLine, poseLine, type Frame, type SignalFace, type SignalLine } from './review-signals.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Size {
  width: number;
  height: number;
}

/** How much of the box's size is added on each side: the whole head and a little of the neck, as a person compares faces. */
const MARGIN = 0.35;

/**
 * The face's box scaled from the analysed image to the stored one, widened by MARGIN on each
 * side and kept inside the image; null when the signals hold no box or no analysed size.
 */
export function faceCrop(face: SignalFace | undefined, analysed: Partial<Size>, stored: Size): Rect | null {
  const box = face?.box;
  if (!box || !analysed.width || !analysed.height || !stored.width || !stored.height) return null;
  const sx = stored.width / analysed.width;
  const sy = stored.height / analysed.height;
  const [bx, by, bw, bh] = box;
  const x0 = Math.max(0, Math.floor((bx - bw * MARGIN) * sx));
  const y0 = Math.max(0, Math.floor((by - bh * MARGIN) * sy));
  const x1 = Math.min(stored.width, Math.ceil((bx + bw * (1 + MARGIN)) * sx));
  const y1 = Math.min(stored.height, Math.ceil((by + bh * (1 + MARGIN)) * sy));
  if (x1 - x0 < 1 || y1 - y0 < 1) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** One face of the comparison: which image, where its largest face is, and what was measured of it. */
export interface FaceCard {
  /** `document`, or `step-<n>` for the frame of step n. */
  key: string;
  /** The analysed image's largest face and the analysed size its box is in; null without face signals. */
  face: SignalFace | undefined;
  analysed: Partial<Size>;
  faceCount: number | null;
  /** The frame's similarity to the document's face against the thresholds (null for the document). */
  match: SignalLine | null;
  /** The frame's head turn against the step's pose (null for the document, or a step without a pose). */
  pose: SignalLine | null;
}

/**
 * The document's face and each frame's, in step order, with what the signals say of each; null
 * when the signals are not face signals (face checks off), and the page shows the images whole.
 */
export function faceCards(signals: Record<string, unknown>): { document: FaceCard; frames: FaceCard[] } | null {
  if (!isFaceSignals(signals)) return null;
  const t = signals.thresholds;
  const d = signals.document;
  const document: FaceCard = {
    key: 'document',
    face: d.faces?.[0],
    analysed: { width: d.width, height: d.height },
    faceCount: d.face_count,
    match: null,
    pose: null,
  };
  const frames = [...signals.frames]
    .sort((a, b) => a.step - b.step)
    .map((f: Frame): FaceCard => ({
      key: `step-${f.step}`,
      face: f.faces[0],
      analysed: { width: f.width, height: f.height },
      faceCount: f.face_count,
      match: matchLine(
        'Match with the document',
        f.document_similarity,
        t,
        f.face_count === 0 ? 'no face in this frame' : 'no face on the document',
      ),
      pose: poseLine(f, t),
    }));
  return { document, frames };
}
