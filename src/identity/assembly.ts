import type { JobQueue } from '../jobs/queue.js';
import { createAttestationService } from './attestations.js';
import { createCaptureService } from './capture/service.js';
import type { IdentityDeps } from './deps.js';
import { createOperatorCaseService } from './operator-case.js';
import { createReviewCaseService } from './review-case.js';
import { createReviewClaimService } from './review-claims.js';
import { createIdentityOperatorReads, createIdentityOperatorService, createVerificationService } from './service.js';
import type { PoseCheck } from './capture/views.js';

/** What the identity services take besides their dependencies. */
export interface IdentitySettings {
  jobs: JobQueue;
  /** The capture page's pose check (FACE_YAW_*), with face checks off too: it guides the person either way. */
  poseCheck: PoseCheck;
  /** The attestations' issuer: PUBLIC_URL's /v1. */
  issuer: string;
}

/**
 * Every identity service, built once by the composition root (src/compose.ts): the partner API's
 * (verifications, capture, attestations, review) and the operator API's (starting a
 * verification, the operator's case, the console's reads).
 */
export function assembleIdentity(deps: IdentityDeps, settings: IdentitySettings) {
  return {
    verifications: createVerificationService(deps),
    capture: createCaptureService({ ...deps, jobs: settings.jobs, poseCheck: settings.poseCheck }),
    attestations: createAttestationService(deps, settings.issuer),
    cases: createReviewCaseService(deps),
    claims: createReviewClaimService(deps),
    operator: createIdentityOperatorService(deps),
    operatorCases: createOperatorCaseService(deps),
    reads: createIdentityOperatorReads(deps.db),
  };
}

export type IdentityServices = ReturnType<typeof assembleIdentity>;
