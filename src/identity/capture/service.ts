import { randomUUID } from 'node:crypto';
import { parse as parseMrz } from 'mrz';
import type { Tx } from '../../db/client.js';
import { FRAME_SOURCES, type FrameSource } from '../../db/vocabulary.js';
import type { JobQueue } from '../../jobs/queue.js';
import { sha256Hex } from '../../lib/crypto.js';
import { appendAudit } from '../audit.js';
import { identityErrors as errors } from '../errors.js';
import * as repo from '../repo.js';
import type { VerificationRow } from '../repo.js';
import type { IdentityDeps } from '../deps.js';
import { storeImage, type StoredImage } from '../uploads/inspect.js';
import type { CaptureForm, UploadSink } from '../uploads/multipart.js';
import { captureStatusView, challengeView, type PoseCheck } from './views.js';
import { newChallenge, storedChallenge } from './challenge.js';

export const PIPELINE_QUEUE = 'identity.pipeline';
const DEVICE = 'device';

/** Refusals that need no body: checked before a single upload byte is read, and again under the lock. */
function assertCanUploadDocument(v: VerificationRow): void {
  if (v.stage !== 'document') throw errors.documentAlreadyUploaded();
}

function assertCanUploadSelfie(v: VerificationRow): void {
  if (v.stage === 'document') throw errors.documentFirst();
  if (!v.challengeId) throw errors.challengeFirst();
  if (v.stage === 'complete') throw errors.allFramesUploaded();
}

/**
 * `poseCheck`: the yaw thresholds the pipeline will judge the frames by (null when it checks no
 * faces), handed to the device with the challenge so the page refuses exactly what the server would.
 */
export function createCaptureService(deps: IdentityDeps & { jobs: JobQueue; poseCheck: PoseCheck }) {
  const { db, clock, blobs, jobs, poseCheck } = deps;

  async function status(v: VerificationRow) {
    const [frames, requester] = await Promise.all([repo.framesOf(db, v.id), repo.profileForCapture(db, v.profileId)]);
    return captureStatusView(
      v,
      frames.map((f) => f.step),
      requester,
    );
  }

  /** Runs `fn`; deletes the just-stored blobs when it refuses, so a refused upload leaves nothing behind. */
  async function discardOnRefusal<T>(images: StoredImage | (StoredImage | undefined)[], fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      for (const image of Array.isArray(images) ? images : [images]) if (image) await blobs.delete(image.blobKey).catch(() => {});
      throw err;
    }
  }

  /** Runs `fn` with the verification locked; deletes the just-stored blobs when `fn` refuses. */
  async function commitUpload<T>(
    v: VerificationRow,
    images: StoredImage | (StoredImage | undefined)[],
    fn: (tx: Tx, locked: VerificationRow) => Promise<T>,
  ): Promise<T> {
    return discardOnRefusal(images, () =>
      db.transaction(async (tx) => {
        const locked = await repo.lockVerification(tx, v.id);
        if (!locked || locked.erasedAt) throw errors.handoffTokenInvalid();
        return fn(tx, locked);
      }),
    );
  }

  /** The MRZ text field, lines joined by \n; null when none was sent, 422 when it does not parse. */
  function readMrzField(mrz: string | undefined): string | null {
    if (mrz === undefined || mrz.trim() === '') return null;
    const lines = mrz.trim().split(/\r?\n/);
    try {
      parseMrz(lines);
    } catch {
      throw errors.mrzUnreadable();
    }
    return lines.join('\n');
  }

  /** Parses the step field against the challenge: an integer within 0..N-1, else 422. */
  function parseStep(v: VerificationRow, raw: string | undefined): number {
    const n = storedChallenge(v).length;
    const step = raw !== undefined && /^\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!Number.isInteger(step) || step < 0 || step >= n) throw errors.stepOutOfRange(n);
    return step;
  }

  /** The frame's `source` field: `camera` when absent (pages before it existed sent camera frames only), 422 otherwise unless `file`. */
  function parseSource(raw: string | undefined): FrameSource {
    if (raw === undefined || raw.trim() === '') return 'camera';
    const source = raw.trim();
    if (!(FRAME_SOURCES as readonly string[]).includes(source)) throw errors.frameSourceInvalid();
    return source as FrameSource;
  }

  /** 409 when the step already has its frame (checked again under the lock when the frame is stored). */
  async function assertStepOpen(v: VerificationRow, step: number): Promise<void> {
    if ((await repo.framesOf(db, v.id)).some((f) => f.step === step)) throw errors.stepTaken(step);
  }

  return {
    async authenticate(token: string | null): Promise<VerificationRow> {
      if (!token) throw errors.handoffTokenInvalid();
      const v = await repo.verificationByTokenHash(db, sha256Hex(token), clock.now());
      if (!v) throw errors.handoffTokenInvalid();
      return v;
    },

    status,

    assertCanUploadDocument,
    assertCanUploadSelfie,

    /** Where readCaptureForm streams this verification's upload: into the blob store, under the verification. */
    uploadSink(v: VerificationRow, opts: { takesBack?: boolean } = {}): UploadSink {
      return {
        takesBack: opts.takesBack,
        store: (file) => storeImage(blobs, `identity/${v.id}/${randomUUID()}`, file),
        discard: (image) => blobs.delete(image.blobKey),
      };
    },

    /** A step sent before the file is checked before a byte of the file is stored. */
    async checkStepBeforeFile(v: VerificationRow, fields: Record<string, string>): Promise<void> {
      if (fields.step !== undefined) await assertStepOpen(v, parseStep(v, fields.step));
    },

    async uploadDocument(v: VerificationRow, upload: CaptureForm) {
      const { image, back } = upload;
      const mrz = await discardOnRefusal([image, back], async () => readMrzField(upload.fields.mrz));
      const updated = await commitUpload(v, [image, back], async (tx, locked) => {
        assertCanUploadDocument(locked);
        const now = clock.now();
        const row = await repo.updateVerification(tx, v.id, {
          stage: 'challenge',
          mrz,
          mrzSource: mrz === null ? null : 'typed',
          documentBlob: image.blobKey,
          documentSha256: image.sha256,
          documentWidth: image.width,
          documentHeight: image.height,
          documentBackBlob: back?.blobKey ?? null,
          documentBackSha256: back?.sha256 ?? null,
          documentBackWidth: back?.width ?? null,
          documentBackHeight: back?.height ?? null,
          updatedAt: now,
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'capture.document_uploaded',
          actor: DEVICE,
          data: {
            sha256: image.sha256,
            width: image.width,
            height: image.height,
            ...(back ? { back: { sha256: back.sha256, width: back.width, height: back.height } } : {}),
            mrz: mrz !== null,
          },
        });
        return row;
      });
      const s = await status(updated);
      return { stage: s.stage, next_step: s.next_step };
    },

    /**
     * "No, thanks" on the consent screen (docs/identity.md, "Consent and capture"): nothing was sent yet, so
     * nothing is deleted; the verification keeps its status (`awaiting_capture` — the contract has
     * no status or reason for it), records when, and every link stops working. A new link from the
     * partner or the operator clears it and asks again.
     */
    async declineConsent(v: VerificationRow) {
      return db.transaction(async (tx) => {
        const locked = await repo.lockVerification(tx, v.id);
        if (!locked || locked.erasedAt) throw errors.handoffTokenInvalid();
        if (locked.stage !== 'document') throw errors.consentAfterUpload();
        const now = clock.now();
        const row = await repo.updateVerification(tx, v.id, { consentDeclinedAt: now, updatedAt: now });
        await repo.revokeHandoffTokens(tx, v.id, now);
        await appendAudit(tx, clock, { verificationId: v.id, type: 'capture.consent_declined', actor: DEVICE, data: {} });
        return { verification_id: row.id, consent_declined_at: now.toISOString() };
      });
    },

    /** Issues the challenge once; every later call answers the same one. */
    async challenge(v: VerificationRow) {
      if (v.stage === 'document') throw errors.documentFirst();
      const row = await db.transaction(async (tx) => {
        const locked = (await repo.lockVerification(tx, v.id))!;
        if (locked.challengeId) return locked;
        const now = clock.now();
        const steps = newChallenge();
        const issued = await repo.updateVerification(tx, v.id, {
          challengeId: randomUUID(),
          challenge: steps,
          stage: 'selfie',
          updatedAt: now,
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'capture.challenge_issued',
          actor: DEVICE,
          data: { challenge_id: issued.challengeId, steps: steps.length },
        });
        return issued;
      });
      return challengeView(row, poseCheck);
    },

    /**
     * Stores one frame. The frame that completes the challenge moves the verification to
     * processing and queues the pipeline in the same transaction: the decision cannot be lost.
     */
    async uploadSelfie(v: VerificationRow, upload: CaptureForm) {
      const { image } = upload;
      const { step, source } = await discardOnRefusal(image, async () => ({
        step: parseStep(v, upload.fields.step),
        source: parseSource(upload.fields.source),
      }));
      const updated = await commitUpload(v, image, async (tx, locked) => {
        assertCanUploadSelfie(locked);
        const now = clock.now();
        const inserted = await repo.insertFrame(tx, {
          verificationId: v.id,
          step,
          blobKey: image.blobKey,
          sha256: image.sha256,
          width: image.width,
          height: image.height,
          source,
          createdAt: now,
        });
        if (!inserted) throw errors.stepTaken(step);
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'capture.frame_uploaded',
          actor: DEVICE,
          data: { step, sha256: image.sha256, source },
        });
        const total = storedChallenge(locked).length;
        const frames = await repo.framesOf(tx, v.id);
        if (frames.length < total) return locked;
        const row = await repo.updateVerification(tx, v.id, { stage: 'complete', status: 'processing', updatedAt: now });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'verification.processing',
          actor: DEVICE,
          data: { status: 'processing' },
        });
        await jobs.enqueue(PIPELINE_QUEUE, { verificationId: v.id }, { tx });
        return row;
      });
      return status(updated);
    },
  };
}

export type CaptureService = ReturnType<typeof createCaptureService>;
