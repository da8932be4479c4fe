import { randomInt } from 'node:crypto';

export interface ChallengeStep {
  step: number;
  instruction: string;
}

const INSTRUCTIONS = [
  'Look straight at the camera',
  'Turn your head slightly to the left',
  'Turn your head slightly to the right',
  'Tilt your head up',
  'Tilt your head down',
  'Smile',
  'Blink slowly',
];

/** A fresh liveness challenge: 3 to 5 distinct instructions in random order. */
export function newChallenge(): ChallengeStep[] {
  const n = randomInt(3, 6);
  const pool = [...INSTRUCTIONS];
  const steps: ChallengeStep[] = [];
  for (let step = 0; step < n; step++) {
    const [instruction] = pool.splice(randomInt(pool.length), 1);
    steps.push({ step, instruction: instruction! });
  }
  return steps;
}

export type Stage = 'document' | 'challenge' | 'selfie' | 'complete';
export type NextStep = { type: 'document' } | { type: 'challenge' } | { type: 'selfie'; step: number } | { type: 'done' };

/** Where the device resumes: the first thing not yet done. */
export function nextStep(stage: Stage, steps: number, uploaded: number[]): NextStep {
  if (stage === 'document') return { type: 'document' };
  if (stage === 'challenge') return { type: 'challenge' };
  for (let step = 0; step < steps; step++) if (!uploaded.includes(step)) return { type: 'selfie', step };
  return { type: 'done' };
}
