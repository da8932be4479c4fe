import { parse as parseMrz } from 'mrz';
import type { KeyPrincipal } from '../auth/api-keys.js';
import type { BlobStore } from '../blobs/store.js';
import { appendAudit } from './audit.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import type { IdentityDeps } from './service.js';
import { sniffImageType } from './uploads/strip-metadata.js';

/** A challenge step as stored in `identity_verifications.challenge`; `pose` is there once face checks issue it. */
interface StoredStep {
  step: number;
  instruction: string;
  pose?: 'front' | 'left' | 'right';
}

const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** The stored image's type by its magic bytes (uploads are checked the same way, so this never guesses). */
export function imageContentType(bytes: Buffer): string {
  const type = sniffImageType(bytes.subarray(0, 16));
  return type ? CONTENT_TYPES[type] : 'application/octet-stream';
}

/** The MRZ's parsed fields (names, numbers, dates as printed), or null when none was sent or it does not parse. */
export function mrzFields(mrz: string | null): Record<string, string | null> | null {
  if (!mrz) return null;
  try {
    const { fields } = parseMrz(mrz.split('\n'));
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : null]));
  } catch {
    return null;
  }
}

/**
 * The reviewer's case view and image access (README "Manual review"). Both are limited to
 * reviewer keys of the verification's profile (404 otherwise); every image served is an audit
 * event, so the chain records who looked at which picture.
 */
export function createReviewCaseService({ db, clock, blobs }: Pick<IdentityDeps, 'db' | 'clock' | 'blobs'>) {
  async function load(principal: KeyPrincipal, id: string): Promise<VerificationRow> {
    const v = await repo.findVerification(db, principal.profileId, id);
    if (!v) throw errors.verificationNotFound();
    if (v.erasedAt) throw errors.imagesErased();
    return v;
  }

  async function typeOf(store: BlobStore, key: string | null): Promise<string | null> {
    return key ? imageContentType(await store.get(key)) : null;
  }

  return {
    async caseView(principal: KeyPrincipal, id: string) {
      const v = await load(principal, id);
      const [frames, audit] = await Promise.all([repo.framesOf(db, v.id), repo.auditTrail(db, v.id)]);
      const base = `/v1/review/${v.id}/images`;
      const steps = ((v.challenge as StoredStep[] | null) ?? []).map(async (s) => {
        const frame = frames.find((f) => f.step === s.step);
        return {
          step: s.step,
          instruction: s.instruction,
          pose: s.pose ?? null,
          image_url: frame ? `${base}/selfie/${s.step}` : null,
          content_type: frame ? await typeOf(blobs, frame.blobKey) : null,
          width: frame?.width ?? null,
          height: frame?.height ?? null,
        };
      });
      return {
        id: v.id,
        status: v.status,
        reason: v.decisionReason,
        reference: v.reference,
        created_at: v.createdAt.toISOString(),
        document: {
          image_url: v.documentBlob ? `${base}/document` : null,
          content_type: await typeOf(blobs, v.documentBlob),
          width: v.documentWidth,
          height: v.documentHeight,
          mrz: mrzFields(v.mrz),
        },
        steps: await Promise.all(steps),
        signals: (v.signals ?? {}) as Record<string, unknown>,
        audit: audit.map((e) => ({ type: e.type, at: e.createdAt.toISOString(), actor: e.actor })),
      };
    },

    /** The stored bytes of the document (`step` null) or of one selfie frame; appends `review.image_viewed`. */
    async image(principal: KeyPrincipal, id: string, step: number | null) {
      const v = await load(principal, id);
      return db.transaction(async (tx) => {
        const locked = await repo.lockVerification(tx, v.id);
        if (!locked) throw errors.verificationNotFound();
        if (locked.erasedAt) throw errors.imagesErased();
        let key: string | null;
        if (step === null) {
          key = locked.documentBlob;
          if (!key) throw errors.noDocumentImage();
        } else {
          key = (await repo.framesOf(tx, v.id)).find((f) => f.step === step)?.blobKey ?? null;
          if (!key) throw errors.noSelfieFrame(step);
        }
        const bytes = await blobs.get(key);
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'review.image_viewed',
          actor: principal.keyId,
          data: step === null ? { image: 'document' } : { image: 'selfie', step },
        });
        return { bytes, contentType: imageContentType(bytes) };
      });
    },
  };
}

export type ReviewCaseService = ReturnType<typeof createReviewCaseService>;
