import type { KeyPrincipal } from '../auth/api-keys.js';
import { appendAudit } from './audit.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import type { IdentityDeps } from './service.js';
import { imageContentType, reviewCaseView } from './views.js';

/**
 * The reviewer's case view and image access (GET /v1/review/{id} and its images, routes/review.ts).
 * Both are limited to reviewer keys of the verification's profile (404 otherwise); every image
 * served is an audit event, so the chain records who looked at which picture.
 */
export function createReviewCaseService({ db, clock, blobs }: Pick<IdentityDeps, 'db' | 'clock' | 'blobs'>) {
  async function load(principal: KeyPrincipal, id: string): Promise<VerificationRow> {
    const v = await repo.findVerification(db, principal.profileId, id);
    if (!v) throw errors.verificationNotFound();
    if (v.erasedAt) throw errors.imagesErased();
    return v;
  }

  /** The content type of each stored image, read from its magic bytes. */
  async function contentTypesOf(keys: (string | null)[]): Promise<Map<string, string>> {
    const present = keys.filter((key): key is string => key !== null);
    const types = await Promise.all(present.map(async (key) => [key, imageContentType(await blobs.get(key))] as const));
    return new Map(types);
  }

  return {
    async caseView(principal: KeyPrincipal, id: string) {
      const v = await load(principal, id);
      const [frames, audit] = await Promise.all([repo.framesOf(db, v.id), repo.auditTrail(db, v.id)]);
      const contentTypes = await contentTypesOf([v.documentBlob, v.documentBackBlob, ...frames.map((f) => f.blobKey)]);
      return reviewCaseView(v, { frames, audit, contentTypes });
    },

    /** The stored bytes of the document, of its back or of one selfie frame (its step); appends `review.image_viewed`. */
    async image(principal: KeyPrincipal, id: string, which: 'document' | 'document-back' | number) {
      const v = await load(principal, id);
      return db.transaction(async (tx) => {
        const locked = await repo.lockVerification(tx, v.id);
        if (!locked) throw errors.verificationNotFound();
        if (locked.erasedAt) throw errors.imagesErased();
        let key: string | null;
        if (which === 'document') {
          key = locked.documentBlob;
          if (!key) throw errors.noDocumentImage();
        } else if (which === 'document-back') {
          key = locked.documentBackBlob;
          if (!key) throw errors.noDocumentBack();
        } else {
          key = (await repo.framesOf(tx, v.id)).find((f) => f.step === which)?.blobKey ?? null;
          if (!key) throw errors.noSelfieFrame(which);
        }
        const bytes = await blobs.get(key);
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'review.image_viewed',
          actor: principal.keyId,
          data: typeof which === 'number' ? { image: 'selfie', step: which } : { image: which },
        });
        return { bytes, contentType: imageContentType(bytes) };
      });
    },
  };
}

export type ReviewCaseService = ReturnType<typeof createReviewCaseService>;
