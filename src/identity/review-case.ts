import type { KeyPrincipal } from '../auth/api-keys.js';
import { keyHolder, keyNames } from '../auth/repo.js';
import { claimViews } from './review-claims.js';
import type { DbOrTx } from '../db/client.js';
import { appendAudit } from './audit.js';
import { caseImageKey, type CaseImage } from './case-images.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import { keyActor, type IdentityDeps } from './deps.js';
import { actorKeyId, imageContentType, reviewCaseView } from './views.js';

/** How long a case stays open to reviewers after a reviewer decided it (docs/security.md, "Security"). */
const REVIEW_REACH_MS = 24 * 60 * 60 * 1000;

/**
 * Whether reviewers may open the case now: while it waits in manual_review, and for 24 hours
 * after a reviewer decided it (to check or explain the decision); never a case the pipeline
 * decided or one still being captured.
 */
function withinReviewerReach(v: Pick<VerificationRow, 'status' | 'decisionReason' | 'decidedAt'>, now: Date): boolean {
  if (v.status === 'manual_review') return true;
  if (!v.decidedAt || !v.decisionReason?.startsWith('reviewer_')) return false;
  return now.getTime() < v.decidedAt.getTime() + REVIEW_REACH_MS;
}

/**
 * The reviewer's case view and image access (GET /v1/review/{id} and its images, routes/review.ts).
 * Both are limited to reviewer keys of the verification's profile and to cases within reach
 * (404 otherwise, 410 once erased); every case opened and every image served is an audit event,
 * so the chain records which reviewer key saw whose personal data.
 */
export function createReviewCaseService({ db, clock, blobs }: Pick<IdentityDeps, 'db' | 'clock' | 'blobs'>) {
  /** The verification locked, if the reviewer may see it now. */
  async function lockInReach(tx: DbOrTx, principal: KeyPrincipal, id: string): Promise<VerificationRow> {
    const found = await repo.findVerification(tx, principal.profileId, id);
    const v = found ? await repo.lockVerification(tx, found.id) : null;
    if (!v) throw errors.verificationNotFound();
    if (v.erasedAt) throw errors.imagesErased();
    if (!withinReviewerReach(v, clock.now())) throw errors.verificationNotFound();
    return v;
  }

  /** The content type of each stored image, read from its magic bytes. */
  async function contentTypesOf(keys: (string | null)[]): Promise<Map<string, string>> {
    const present = keys.filter((key): key is string => key !== null);
    const types = await Promise.all(present.map(async (key) => [key, imageContentType(await blobs.get(key))] as const));
    return new Map(types);
  }

  return {
    /** The case as a reviewer judges it; appends `review.case_viewed` (name, birth date and document number were shown). */
    async caseView(principal: KeyPrincipal, id: string) {
      const { v, frames, audit, decisions, names, claim, documentUsedBy, viewerHolder, policy } = await db.transaction(async (tx) => {
        const v = await lockInReach(tx, principal, id);
        await appendAudit(tx, clock, { verificationId: v.id, type: 'review.case_viewed', actor: keyActor(principal) });
        const [frames, audit] = [await repo.framesOf(tx, v.id), await repo.auditTrail(tx, v.id)];
        const decisions = (await repo.decisionsOf(tx, [v.id])).get(v.id) ?? [];
        const names = await keyNames(
          tx,
          principal.profileId,
          audit.map((e) => actorKeyId(e.actor) ?? ''),
        );
        const claim = (await claimViews(tx, principal.profileId, [v], clock.now())).get(v.id) ?? null;
        const now = clock.now();
        const documentUsedBy = (await repo.documentUsedBy(tx, v)).map((other) => ({ v: other, inReach: withinReviewerReach(other, now) }));
        const [viewerHolder, policy] = [await keyHolder(tx, principal.keyId), await repo.reviewPolicyOf(tx, v.profileId)];
        return { v, frames, audit, decisions, names, claim, documentUsedBy, viewerHolder, policy };
      });
      const contentTypes = await contentTypesOf([v.documentBlob, v.documentBackBlob, ...frames.map((f) => f.blobKey)]);
      return reviewCaseView(v, {
        frames,
        audit,
        contentTypes,
        decisions,
        viewerKeyId: principal.keyId,
        viewerHolder,
        policy,
        keyNames: names,
        claim,
        documentUsedBy,
      });
    },

    /** The stored bytes of the document, of its back or of one selfie frame (its step); appends `review.image_viewed`. */
    async image(principal: KeyPrincipal, id: string, which: CaseImage) {
      return db.transaction(async (tx) => {
        const v = await lockInReach(tx, principal, id);
        const bytes = await blobs.get(await caseImageKey(tx, v, which));
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'review.image_viewed',
          actor: keyActor(principal),
          data: typeof which === 'number' ? { image: 'selfie', step: which } : { image: which },
        });
        return { bytes, contentType: imageContentType(bytes) };
      });
    },
  };
}

export type ReviewCaseService = ReturnType<typeof createReviewCaseService>;
