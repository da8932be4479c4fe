import type { z } from 'zod';
import type { FaceThresholds } from '../face-rules.js';
import type { VerificationRow } from '../repo.js';
import type * as s from '../schemas.js';
import { nextStep, storedChallenge, type ChallengeStep } from './challenge.js';

/** Where the device stands and where it resumes, who asks, and where the page sends the person back. */
export function captureStatusView(
  v: VerificationRow,
  uploadedSteps: number[],
  requester: { name: string; privacyPolicyUrl: string | null },
): z.infer<typeof s.captureStatus> {
  return {
    verification_id: v.id,
    stage: v.stage,
    next_step: nextStep(v.stage, storedChallenge(v), uploadedSteps),
    uploaded_steps: uploadedSteps,
    requester: { name: requester.name, privacy_policy_url: requester.privacyPolicyUrl },
    return_url: v.returnUrl,
  };
}

/** The steps as the API shows them: `pose` null on a challenge issued before poses existed. */
function stepsView(steps: ChallengeStep[]): z.infer<typeof s.challenge>['steps'] {
  return steps.map((step) => ({ step: step.step, instruction: step.instruction, pose: step.pose ?? null }));
}

/** The yaw thresholds the pipeline judges poses by (FACE_YAW_TURN, FACE_YAW_FRONT). */
export type PoseCheck = Pick<FaceThresholds, 'yawTurn' | 'yawFront'>;

export function challengeView(v: VerificationRow, poseCheck: PoseCheck): z.infer<typeof s.challenge> {
  return {
    challenge_id: v.challengeId!,
    steps: stepsView(storedChallenge(v)),
    pose_check: { yaw_turn: poseCheck.yawTurn, yaw_front: poseCheck.yawFront },
  };
}
