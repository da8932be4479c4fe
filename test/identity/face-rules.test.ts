import { describe, expect, it } from 'vitest';
import { configFrom } from '../../src/config.js';
import { newChallenge } from '../../src/identity/capture/challenge.js';
import { buildSignals, decideFaces, poseFollowed, type FaceThresholds } from '../../src/identity/face-rules.js';
import type { ImageAnalysis } from '../../src/recognition/faces/signals.js';

const T: FaceThresholds = { matchLow: 0.3, matchHigh: 0.45, yawTurn: 0.15, yawFront: 0.25 };

const image = (yaws: number[]): ImageAnalysis => ({
  width: 640,
  height: 480,
  face_count: yaws.length,
  faces: yaws.map((yaw) => ({ score: 0.99, box: [10, 10, 200, 200], yaw, pitch: 0, roll: 0, antispoof: 0.6, liveness: 0.9 })),
});

/** Document + frames (front, left, right) with the given document similarities. */
function signals(opts: { doc?: number[]; frames?: number[][]; toDocument?: (number | null)[] } = {}) {
  const frames = opts.frames ?? [[0.02], [-0.4], [0.4]];
  const images = [image(opts.doc ?? [0]), ...frames.map(image)];
  const sims = opts.toDocument ?? frames.map(() => 0.6);
  const similarity = images.map((_, i) => images.map((__, j) => (i === 0 && j > 0 ? sims[j - 1]! : j > i ? 0.5 : null)));
  const steps = [
    { step: 0, pose: 'front' as const },
    { step: 1, pose: 'left' as const },
    { step: 2, pose: 'right' as const },
  ];
  return buildSignals(images, similarity, steps.slice(0, frames.length), T, 1234);
}

describe('face rules (pure)', () => {
  it('reads "left" as negative yaw (the face turned toward the image\'s right edge) and "right" as positive', () => {
    expect(poseFollowed('left', -0.4, T)).toBe(true);
    expect(poseFollowed('left', 0.4, T)).toBe(false);
    expect(poseFollowed('left', -0.1, T)).toBe(false);
    expect(poseFollowed('right', 0.4, T)).toBe(true);
    expect(poseFollowed('right', -0.4, T)).toBe(false);
    expect(poseFollowed('front', 0.2, T)).toBe(true);
    expect(poseFollowed('front', -0.3, T)).toBe(false);
    expect(poseFollowed('front', null, T)).toBe(false);
  });

  it('applies the rules in order: no face in the document, no face in a frame, several faces, pose, similarity', () => {
    expect(decideFaces(signals(), T)).toBeNull();
    expect(decideFaces(signals({ doc: [], frames: [[], [-0.4, 0.1], [-0.4]] }), T)).toEqual({
      status: 'declined',
      reason: 'no_face_document',
    });
    expect(decideFaces(signals({ doc: [0, 0], frames: [[], [-0.4], [0.4]] }), T)).toEqual({ status: 'declined', reason: 'no_face_selfie' });
    expect(decideFaces(signals({ doc: [0, 0], frames: [[0], [0.4], [0.4]] }), T)).toEqual({
      status: 'manual_review',
      reason: 'multiple_faces',
    });
    expect(decideFaces(signals({ frames: [[0], [0.4], [0.4]] }), T)).toEqual({ status: 'declined', reason: 'challenge_not_followed' });
    expect(decideFaces(signals({ frames: [[0], [0.4], [0.4]], toDocument: [0.1, 0.1, 0.1] }), T)).toEqual({
      status: 'declined',
      reason: 'challenge_not_followed',
    });
    expect(decideFaces(signals({ toDocument: [0.1, 0.29, 0.9] }), T)).toEqual({ status: 'declined', reason: 'face_mismatch' });
    expect(decideFaces(signals({ toDocument: [0.3, 0.44, 0.9] }), T)).toEqual({ status: 'manual_review', reason: 'face_match_uncertain' });
    expect(decideFaces(signals({ toDocument: [0.1, 0.45, 0.9] }), T)).toBeNull();
  });

  it('stores the median document similarity, frame consistency and the thresholds, and no embedding', () => {
    const s = signals({ toDocument: [0.2, 0.5, 0.7] });
    expect(s.document_similarity).toBe(0.5);
    expect(s.frames.map((f) => [f.step, f.pose, f.document_similarity])).toEqual([
      [0, 'front', 0.2],
      [1, 'left', 0.5],
      [2, 'right', 0.7],
    ]);
    expect(s.frame_consistency).toEqual({ min: 0.5, mean: 0.5 });
    expect(s.thresholds).toEqual({ match_low: 0.3, match_high: 0.45, yaw_turn: 0.15, yaw_front: 0.25 });
  });

  it('skips the pose rule for a step issued before poses existed', () => {
    const s = signals({ frames: [[0.5]] });
    expect(decideFaces({ ...s, frames: s.frames.map((f) => ({ ...f, pose: null })) }, T)).toBeNull();
  });

  it('configures face checks on by default and refuses a low threshold above the high one', () => {
    expect(configFrom({})).toMatchObject({
      FACE_CHECKS: 'on',
      FACE_WORKERS: 1,
      FACE_MATCH_LOW: 0.3,
      FACE_MATCH_HIGH: 0.4,
      FACE_YAW_TURN: 0.15,
      FACE_YAW_FRONT: 0.25,
    });
    expect(configFrom({ FACE_CHECKS: 'off' }).FACE_CHECKS).toBe('off');
    expect(() => configFrom({ FACE_MATCH_LOW: '0.5', FACE_MATCH_HIGH: '0.4' })).toThrow('FACE_MATCH_LOW');
    expect(() => configFrom({ FACE_CHECKS: 'maybe' })).toThrow('FACE_CHECKS');
  });

  it('issues 3–5 steps with exactly one left and one right turn, the pose said in words', () => {
    for (let i = 0; i < 200; i++) {
      const steps = newChallenge();
      expect(steps.length).toBeGreaterThanOrEqual(3);
      expect(steps.length).toBeLessThanOrEqual(5);
      expect(steps.map((s) => s.step)).toEqual([...steps.keys()]);
      expect(steps.filter((s) => s.pose === 'left').map((s) => s.instruction)).toEqual(['Turn your head slightly to your own left']);
      expect(steps.filter((s) => s.pose === 'right').map((s) => s.instruction)).toEqual(['Turn your head slightly to your own right']);
      for (const s of steps.filter((x) => x.pose === 'front')) expect(s.instruction).toMatch(/^Look straight at the camera/);
      expect(new Set(steps.map((s) => s.instruction)).size).toBe(steps.length);
    }
  });
});
