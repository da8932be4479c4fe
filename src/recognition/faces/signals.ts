/**
 * What the face analysis answers for one image (the faces found, their boxes, head pose and
 * scores): numbers only, never an image or a face embedding. How the identity pipeline decides
 * on them is its own (src/identity/face-rules.ts).
 */

export type Pose = 'front' | 'left' | 'right';

export interface FaceSignal {
  /** Detector confidence 0..1. */
  score: number;
  /** [x, y, width, height] in pixels of the analysed (downscaled) image. */
  box: [number, number, number, number];
  /** Head rotation in radians from the face mesh; yaw < 0: the face turns toward the image's right edge. */
  yaw: number | null;
  pitch: number | null;
  roll: number | null;
  /** Anti-spoofing (real vs. a photo of a photo) and liveness scores 0..1: shown to reviewers, not decided on. */
  antispoof: number | null;
  liveness: number | null;
}

export interface ImageAnalysis {
  /** Size of the analysed (downscaled) image. */
  width: number;
  height: number;
  face_count: number;
  /** Largest face first. */
  faces: FaceSignal[];
}
