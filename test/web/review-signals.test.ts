import { describe, expect, it } from 'vitest';
import { describeSignals } from '../../web/console/review-signals.js';

const thresholds = { match_low: 0.3, match_high: 0.45, yaw_turn: 0.2, yaw_front: 0.15 };
const frame = (step: number, pose: 'front' | 'left' | 'right' | null, yaw: number | null, faceCount = 1) => ({
  step,
  pose,
  face_count: faceCount,
  faces: yaw === null ? [] : [{ yaw, antispoof: 0.9, liveness: 0.9 }],
  document_similarity: 0.5,
});
const signals = (similarity: number | null, frames = [frame(0, 'front', 0.05), frame(1, 'left', -0.35)]) => ({
  document: { face_count: 1 },
  frames,
  document_similarity: similarity,
  frame_consistency: { min: 0.71, mean: 0.8 },
  thresholds,
  duration_ms: 120,
});

describe("the reviewer's signals in words", () => {
  it('puts the face match against the threshold it was decided by', () => {
    expect(describeSignals(signals(0.47))[0]).toEqual({
      label: 'Face match',
      text: '0.47 — at or above 0.45, enough to approve',
      passes: true,
    });
    expect(describeSignals(signals(0.38))[0]).toEqual({
      label: 'Face match',
      text: '0.38 — needs 0.45 to approve (below 0.30 declines)',
      passes: false,
    });
    expect(describeSignals(signals(0.12))[0]!.text).toBe('0.12 — below 0.30, a mismatch');
    expect(describeSignals(signals(null))[0]!.passes).toBe(false);
  });

  it('says each head turn against what the step asked, and counts faces', () => {
    const lines = describeSignals(
      signals(0.5, [frame(0, 'front', 0.3), frame(1, 'right', -0.35), frame(2, 'left', null, 0), frame(3, 'left', -0.4, 2)]),
    );
    expect(lines.map((l) => [l.label, l.text, l.passes])).toEqual([
      ['Face match', '0.50 — at or above 0.45, enough to approve', true],
      ['Faces on the document', 'one', true],
      ['Step 1 head turn', '17° to their right — must face the camera (within 9°)', false],
      ['Step 2 head turn', '20° to their left — asked to turn right, at least 11°', false],
      ['Step 3 faces', '0 — needs exactly one', false],
      ['Step 3 head turn', 'no head turn measured (no face)', false],
      ['Step 4 faces', '2 — needs exactly one', false],
      ['Step 4 head turn', '23° to their left — asked to turn left, at least 11°', true],
      ['Same person in every frame', 'lowest similarity between frames 0.71', null],
    ]);
  });

  it('says nothing of signals that are not face signals', () => {
    expect(describeSignals({})).toEqual([]);
    expect(describeSignals({ document_similarity: 0.4 })).toEqual([]);
  });
});
