import { appendAudit } from './audit.js';
import { caseImageKey, type CaseImage } from './case-images.js';

export type { CaseImage } from './case-images.js';
import { storedChallenge } from './capture/challenge.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import type { IdentityDeps } from './deps.js';
import { issueHandoff } from './service.js';
import { actorKeyId, handoffView, imageContentType, verificationView } from './views.js';
import { keyNames } from '../auth/repo.js';
import { toIso } from '../lib/time.js';

/**
 * Declines a new capture can fix: the images were too small, or no face could be found in them
 * (docs/walkthrough.md, "Decision pipeline"). A decline on the person's data (expired document, mismatching
 * zone, another face) is a decision about them and is never undone by new photos.
 */
export const RESTARTABLE_REASONS = ['image_too_small', 'no_face_document', 'no_face_selfie'] as const;

export function canRestartCapture(v: VerificationRow): boolean {
  return !v.erasedAt && v.status === 'declined' && (RESTARTABLE_REASONS as readonly string[]).includes(v.decisionReason ?? '');
}

/** The operator's actor in the audit chain (every operator action, this file's included). */
const OPERATOR = 'operator';

/**
 * The operator's view of one verification of a profile (docs/consoles.md, "Consoles"): its timeline from
 * the audit chain, the reviewers' decisions with their notes, the images, a new capture link and
 * the decision webhook's deliveries. A verification of another profile is not found (404), as in
 * every API. Images are served as a reviewer's are: never cached, and every one the operator
 * opens appends `operator.image_viewed` to the chain, so the trail says who saw whose face.
 */
export function createOperatorCaseService({ db, clock, blobs, webhooks }: IdentityDeps) {
  async function find(profileId: string, id: string): Promise<VerificationRow> {
    const v = await repo.findVerification(db, profileId, id);
    if (!v) throw errors.verificationNotFound();
    return v;
  }

  return {
    async detail(profileId: string, id: string, imageBase: string) {
      const v = await find(profileId, id);
      const [audit, reviews, frames, eventIds] = await Promise.all([
        repo.auditTrail(db, v.id),
        repo.reviewsOf(db, v.id),
        repo.framesOf(db, v.id),
        repo.decisionWebhookEventIds(db, v),
      ]);
      const names = await keyNames(
        db,
        profileId,
        audit.map((e) => actorKeyId(e.actor) ?? ''),
      );
      const deliveries = (
        await Promise.all(eventIds.map((eventId) => webhooks.service.listDeliveries({ eventId, page: 1, limit: 10 })))
      ).flatMap((page) => page.items);
      const erased = v.erasedAt !== null;
      return {
        verification: verificationView(v),
        timeline: audit.map((e) => ({
          seq: e.seq,
          type: e.type,
          at: toIso(e.createdAt),
          actor: e.actor,
          actor_name: names.get(actorKeyId(e.actor) ?? '') ?? null,
          data: e.data as Record<string, unknown>,
        })),
        reviews: reviews.map((r) => ({
          reviewer: `reviewer:${r.reviewerKeyId}`,
          reviewer_name: r.reviewerName,
          decision: r.decision,
          decline_reasons: r.declineReasons,
          note: r.note,
          decided_at: toIso(r.createdAt),
        })),
        images: {
          document: !erased && v.documentBlob ? `${imageBase}/document` : null,
          document_back: !erased && v.documentBackBlob ? `${imageBase}/document-back` : null,
          steps: (erased ? [] : storedChallenge(v)).map((step) => ({
            step: step.step,
            instruction: step.instruction,
            pose: step.pose ?? null,
            image_url: frames.some((f) => f.step === step.step) ? `${imageBase}/selfie/${step.step}` : null,
            source: frames.find((f) => f.step === step.step)?.source ?? null,
          })),
        },
        can_issue_capture_link: !erased && v.stage !== 'complete',
        can_restart_capture: canRestartCapture(v),
        deliveries,
      };
    },

    /** The stored bytes of one image; appends `operator.image_viewed` in the same transaction as the read. */
    async image(profileId: string, id: string, which: CaseImage) {
      await find(profileId, id);
      return db.transaction(async (tx) => {
        const v = (await repo.lockVerification(tx, id))!;
        if (v.erasedAt) throw errors.imagesErased();
        const bytes = await blobs.get(await caseImageKey(tx, v, which));
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'operator.image_viewed',
          actor: OPERATOR,
          data: typeof which === 'number' ? { image: 'selfie', step: which } : { image: which },
        });
        return { bytes, contentType: imageContentType(bytes) };
      });
    },

    /** A fresh capture link for the person (every earlier token stops working), while capture is open. */
    /**
     * Capture from the start (docs/identity.md, "Consent and capture"): for a verification declined because
     * its images could not be used, the person takes them again. The stored images and frames are
     * deleted, the decision, zone, challenge and signals cleared, the verification goes back to
     * `awaiting_capture` at the document stage, earlier links stop working, and the answer holds
     * the new link; audit `capture.restarted` with the reason it replaces.
     */
    async restartCapture(profileId: string, id: string) {
      await find(profileId, id);
      return db.transaction(async (tx) => {
        const v = (await repo.lockVerification(tx, id))!;
        if (v.erasedAt) throw errors.verificationErased();
        if (!canRestartCapture(v)) throw errors.captureNotRestartable(RESTARTABLE_REASONS);
        const frames = await repo.framesOf(tx, v.id);
        for (const key of [v.documentBlob, v.documentBackBlob, ...frames.map((f) => f.blobKey)]) if (key) await blobs.delete(key);
        await repo.deleteFrames(tx, v.id);
        const now = clock.now();
        const reset = await repo.updateVerification(tx, v.id, {
          status: 'awaiting_capture',
          stage: 'document',
          ...repo.NO_DOCUMENT,
          challengeId: null,
          challenge: null,
          decisionReason: null,
          signals: {},
          pipelineUnfinishedRuns: 0,
          decidedAt: null,
          consentDeclinedAt: null,
          updatedAt: now,
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'capture.restarted',
          actor: OPERATOR,
          data: { previous_status: v.status, previous_reason: v.decisionReason },
        });
        return handoffView(v.id, await issueHandoff(tx, clock, reset, OPERATOR));
      });
    },

    async reissueHandoff(profileId: string, id: string) {
      await find(profileId, id);
      return db.transaction(async (tx) => {
        const v = (await repo.lockVerification(tx, id))!;
        return handoffView(v.id, await issueHandoff(tx, clock, v, OPERATOR));
      });
    },
  };
}
