import { poseFollowed, type FaceThresholds } from '../../../src/identity/face-rules.js';
import type { Pose } from '../../../src/recognition/faces/signals.js';
import { phrase, type Phrase } from '../i18n/catalogue.js';

/**
 * What the page checks in a frame before it sends it: the service's own pose rule
 * (`poseFollowed`, docs/faces.md "Face checks") with the yaw thresholds this server judges by
 * (FACE_YAW_TURN, FACE_YAW_FRONT, handed over with the challenge as `pose_check`), so a frame the
 * pipeline would decline as `challenge_not_followed` is refused here, before it is sent, and the
 * person is told how to fix it; and a turn the page accepts is one the server accepts.
 */
export type YawThresholds = Pick<FaceThresholds, 'yawTurn' | 'yawFront'>;

/** The challenge's `pose_check` as the rule reads it. */
export const yawThresholdsOf = (check: { yaw_turn: number; yaw_front: number }): YawThresholds => ({
  yawTurn: check.yaw_turn,
  yawFront: check.yaw_front,
});

/** A face narrower than this share of the picture is too far for the guide to say "hold it". */
const MIN_FACE_SHARE = 0.18;

export interface FrameFaces {
  /** Width of the analysed picture, in the pixels of `box`. */
  width: number;
  /** Every face found, largest first: box [x, y, width, height], yaw in radians (negative: toward the image's right edge). */
  faces: { box: [number, number, number, number]; yaw: number | null }[];
}

export type Verdict =
  /** The frame may be sent; `closer` when the face is small (allowed, but not captured automatically). */
  | { ok: true; closer: boolean; hint: Phrase }
  /** The frame contradicts the step (or shows no single face): it is never sent. */
  | { ok: false; hint: Phrase };

/** Judges one analysed frame against the step's pose, in the words the person reads (the catalogues' `hint.*`). */
export function judgeFrame(pose: Pose | null, frame: FrameFaces, yaw: YawThresholds): Verdict {
  const [face, second] = frame.faces;
  if (!face) return { ok: false, hint: phrase('hint.no_face') };
  if (second) return { ok: false, hint: phrase('hint.two_faces') };
  const closer = face.box[2] < frame.width * MIN_FACE_SHARE;
  const t = { ...yaw, matchLow: 0, matchHigh: 0 };
  if (pose && !poseFollowed(pose, face.yaw, t)) {
    if (pose === 'front') return { ok: false, hint: phrase('hint.look_straight') };
    const wrongWay = face.yaw !== null && (pose === 'left' ? face.yaw >= t.yawTurn : face.yaw <= -t.yawTurn);
    if (wrongWay) return { ok: false, hint: phrase(pose === 'left' ? 'hint.wrong_way_left' : 'hint.wrong_way_right') };
    return { ok: false, hint: phrase(pose === 'left' ? 'hint.more_left' : 'hint.more_right') };
  }
  if (closer) return { ok: true, closer, hint: phrase('hint.closer') };
  return { ok: true, closer, hint: phrase('hint.hold') };
}
