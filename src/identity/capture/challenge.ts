import { randomInt } from 'node:crypto';

import type { Pose } from '../../recognition/faces/signals.js';
import { BLINK, LOOK_STRAIGHT, SMILE, TURN_LEFT, TURN_RIGHT } from './instructions.js';

export interface ChallengeStep {
  step: number;
  instruction: string;
  /** The head pose the pipeline checks the frame against; absent on challenges issued before poses existed. */
  pose?: Pose;
}

/**
 * "Left" is the person's own left: in the camera's unmirrored image their face then turns toward
 * the image's right edge (docs/faces.md, "Face checks").
 */
const TURNS: { instruction: string; pose: Pose }[] = [
  { instruction: TURN_LEFT, pose: 'left' },
  { instruction: TURN_RIGHT, pose: 'right' },
];

const FRONT = [LOOK_STRAIGHT, SMILE, BLINK];

/**
 * A fresh liveness challenge: 3 to 5 steps in random order, always one turn to the left, one to
 * the right and 1 to 3 frontal steps, so every challenge can be checked against head pose.
 */
export function newChallenge(): ChallengeStep[] {
  const fronts = [...FRONT];
  const items = [...TURNS];
  for (let n = randomInt(1, 4); n > 0; n--) items.push({ instruction: fronts.splice(randomInt(fronts.length), 1)[0]!, pose: 'front' });
  const steps: ChallengeStep[] = [];
  while (items.length > 0) {
    const [item] = items.splice(randomInt(items.length), 1);
    steps.push({ step: steps.length, instruction: item!.instruction, pose: item!.pose });
  }
  return steps;
}

type Stage = 'document' | 'challenge' | 'selfie' | 'complete';
export type NextStep =
  { type: 'document' } | { type: 'challenge' } | { type: 'selfie'; step: number; pose: Pose | null } | { type: 'done' };

/** Where the device resumes: the first thing not yet done. */
export function nextStep(stage: Stage, steps: ChallengeStep[], uploaded: number[]): NextStep {
  if (stage === 'document') return { type: 'document' };
  if (stage === 'challenge') return { type: 'challenge' };
  for (const s of steps) if (!uploaded.includes(s.step)) return { type: 'selfie', step: s.step, pose: s.pose ?? null };
  return { type: 'done' };
}

/** The challenge stored in a verification row (written only from newChallenge), empty before it is issued. */
export function storedChallenge(v: { challenge: unknown }): ChallengeStep[] {
  return (v.challenge as ChallengeStep[] | null) ?? [];
}
