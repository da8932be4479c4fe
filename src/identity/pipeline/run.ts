import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { BlobStoreUnavailable } from '../../blobs/store.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import type { JobHandler } from '../../jobs/queue.js';
import type { Meter } from '../../metrics/meter.js';
import { appendAudit } from '../audit.js';
import * as repo from '../repo.js';
import type { IdentityDeps } from '../deps.js';
import { sendDecisionWebhook } from '../webhooks.js';
import { storedChallenge } from '../capture/challenge.js';
import type { FacePool } from '../../recognition/faces/pool.js';
import { WorkerCrashed, WorkTimedOut } from '../../recognition/worker-pool.js';
import { buildSignals, decideFaces, type FaceSignals, type FaceThresholds } from '../face-rules.js';
import type { DocumentReader, DocumentReading } from '../../recognition/document/reader.js';
import { documentIdentity, type CardSides } from '../../recognition/document/sides.js';
import { decide, decideReading, type PipelineOutcome } from './decide.js';
import { documentNumberHash, reuseWindowStart } from './document-number.js';

const PIPELINE = 'pipeline';

/** The fault the operator injects with fail-next-run. */
export class InjectedPipelineFault extends Error {
  constructor() {
    super('pipeline fault injected by the operator');
  }
}

/**
 * Abnormal ends of one verification's runs (its worker crashed, or its process died mid-run)
 * after which it is not tried again but parked (docs/identity.md, "Bounded identity work"): whatever in its
 * images ends a worker or a process would otherwise end them again on every retry and restart.
 */
export const MAX_ABNORMAL_ENDS = 2;

/** What the audit event verification.pipeline_error records as `error`. */
type PipelineErrorKind = 'timeout' | 'crashed' | 'injected_fault' | 'internal_error';

const errorKind = (err: unknown): PipelineErrorKind =>
  err instanceof InjectedPipelineFault
    ? 'injected_fault'
    : err instanceof WorkTimedOut
      ? 'timeout'
      : err instanceof WorkerCrashed
        ? 'crashed'
        : 'internal_error';

/** Face checks (docs/faces.md, "Face checks"); absent when FACE_CHECKS=off. */
interface FaceChecks {
  pool: FacePool;
  thresholds: FaceThresholds;
}

/**
 * The durable pipeline job. It decides a verification in processing; any thrown error routes the
 * verification to manual_review with the audit event verification.pipeline_error instead of
 * losing it. Only when even that cannot be written (database gone) does the job throw, and the
 * queue runs it again later. Runs are idempotent: a verification no longer in processing is left alone.
 *
 * Every run is counted in the verification's row before its heavy work (countPipelineRun): a run
 * past its deadline parks the verification at once (`timeout`); a worker that ended under a run
 * is retried once, and a verification whose runs ended abnormally MAX_ABNORMAL_ENDS times (worker
 * crashes or process deaths, which leave their count behind) is parked (`crashed`) on its next run.
 */
export function pipelineHandler(
  deps: IdentityDeps & { logger: FastifyBaseLogger; faces?: FaceChecks; documents?: DocumentReader; meter: Meter },
): JobHandler<{ verificationId: string }> {
  const { db, clock, webhooks, logger, blobs, faces, documents, meter } = deps;

  /** Runs the models in the pool (off this event loop) over the document and the frames; a crash or timeout throws. */
  async function measureFaces(checks: FaceChecks, v: repo.VerificationRow, frames: repo.FrameRow[]): Promise<FaceSignals> {
    const started = Date.now();
    const result = await checks.pool.analyze(() =>
      Promise.all([v.documentBlob!, ...frames.map((f) => f.blobKey)].map((key) => blobs.get(key))),
    );
    const steps = storedChallenge(v);
    const poses = frames.map((f) => ({ step: f.step, pose: steps.find((s) => s.step === f.step)?.pose ?? null, source: f.source }));
    return buildSignals(result.images, result.similarity, poses, checks.thresholds, Date.now() - started);
  }

  /**
   * The zone read from the images, the back of a card first, and for a card sent with its back
   * where the zone was read and what the front prints (docs/document-reading.md, "Document reading").
   */
  async function readDocument(reader: DocumentReader, v: repo.VerificationRow): Promise<DocumentReading & { sides?: CardSides | null }> {
    const front = await blobs.get(v.documentBlob!);
    if (!v.documentBackBlob) return reader.read([front]);
    return reader.readCard({ front, back: await blobs.get(v.documentBackBlob) });
  }

  /** The digest of the zone's document number in this profile, when a zone was read (document-number.ts). */
  const numberHashOf = (v: repo.VerificationRow, reading: DocumentReading): string | null => {
    const identity = reading.zone ? documentIdentity(reading.zone) : null;
    return identity ? documentNumberHash(v.profileId, identity) : null;
  };

  async function record(
    verificationId: string,
    outcome: PipelineOutcome | { status: 'manual_review'; reason: 'pipeline_error' },
    error?: PipelineErrorKind,
    signals?: FaceSignals,
    reading?: DocumentReading,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const v = await repo.lockVerification(tx, verificationId);
      if (!v || v.status !== 'processing' || v.erasedAt) return false;
      const now = clock.now();
      const decided = await repo.updateVerification(tx, v.id, {
        status: outcome.status,
        decisionReason: outcome.reason,
        decidedAt: outcome.status === 'manual_review' ? null : now,
        updatedAt: now,
        // A name the engines did not agree on is shown as uncertain in the case view (certainty.ts).
        ...(signals || reading?.nameUncertain
          ? { signals: { ...signals, ...(reading?.zone && reading.nameUncertain ? { mrz_name_uncertain: true } : {}) } }
          : {}),
        // The zone read becomes the verification's zone; a typed one that differs stays as typed,
        // and a zone read from a back that is not the front's card supports no claim until a
        // reviewer confirms it (POST /v1/review/{id} with `mrz`). Its number counts as used either way.
        ...(reading ? { mrzRead: reading.text, documentNumberHash: numberHashOf(v, reading) } : {}),
        ...(reading?.zone && outcome.reason !== 'mrz_mismatch' && outcome.reason !== 'document_sides_mismatch'
          ? { mrz: reading.zone.lines.join('\n'), mrzSource: 'image' as const }
          : {}),
        ...(error ? { failNextRun: false } : {}),
      });
      if (error)
        await appendAudit(tx, clock, { verificationId: v.id, type: 'verification.pipeline_error', actor: PIPELINE, data: { error } });
      await appendAudit(tx, clock, {
        verificationId: v.id,
        type: `verification.${outcome.status}`,
        actor: PIPELINE,
        data: { reason: outcome.reason },
      });
      await sendDecisionWebhook(tx, webhooks, decided, outcome.status);
      return true;
    });
  }

  return async (job) => {
    const { verificationId } = job.payload;
    const v = await repo.getVerification(db, verificationId);
    if (!v || v.status !== 'processing' || v.erasedAt) return;
    // Run time for the metrics: a monotonic measure, not the clock of the decisions.
    const started = performance.now();
    const recordCounted = async (...args: Parameters<typeof record>) => {
      if (await record(...args)) meter.identityDecision(args[1].status, args[1].reason, (performance.now() - started) / 1000);
    };
    const parked = { status: 'manual_review', reason: 'pipeline_error' } as const;
    // Committed before anything heavy: a process that dies during the run leaves it counted.
    const runs = await repo.countPipelineRun(db, v.id);
    if (runs === null) return;
    if (runs > MAX_ABNORMAL_ENDS) {
      logger.error({ verificationId, runs }, 'identity pipeline ended abnormally too often; parking in manual review');
      await recordCounted(v.id, parked, 'crashed');
      return;
    }
    try {
      if (v.failNextRun) throw new InjectedPipelineFault();
      const frames = await repo.framesOf(db, v.id);
      let outcome = decide({
        mrz: v.mrz,
        document: { sha256: v.documentSha256!, width: v.documentWidth!, height: v.documentHeight! },
        frames,
        documentUsedElsewhere: await repo.documentUsedElsewhere(db, v, v.documentSha256!),
        now: clock.now(),
      });
      let reading: DocumentReading | undefined;
      if (documents && outcome.status !== 'declined') {
        const read = await readDocument(documents, v);
        const numberHash = numberHashOf(v, read);
        const now = clock.now();
        reading = read;
        outcome = decideReading(outcome, {
          typed: v.mrz,
          reading: read,
          ...('sides' in read ? { sides: read.sides } : {}),
          numberUsedElsewhere: numberHash !== null && (await repo.documentNumberUsedElsewhere(db, v, numberHash, reuseWindowStart(now))),
          now,
        });
      }
      // The face rules come after the byte rules: measured unless a byte rule already declined
      // (a reviewer of a reused document sees the faces too), deciding only what would be approved.
      let signals: FaceSignals | undefined;
      if (faces && outcome.status !== 'declined') {
        signals = await measureFaces(faces, v, frames);
        const faceOutcome = decideFaces(signals, faces.thresholds);
        if (outcome.status === 'approved' && faceOutcome) outcome = faceOutcome;
      }
      await recordCounted(v.id, outcome, undefined, signals, reading);
    } catch (err) {
      // A bucket that is down decides nothing: the queue runs the job again later (docs/operations.md, "Object
      // storage"). That is an ordinary end, not a crash: its run is handed back. So is a database
      // that failed over meanwhile (docs/failover.md): parking the verification would decide it
      // by the database's outage, as soon as the next write reached the new primary.
      if (err instanceof BlobStoreUnavailable || isDatabaseUnavailable(err)) {
        await repo.uncountPipelineRun(db, v.id).catch(() => {});
        throw err;
      }
      if (err instanceof WorkerCrashed && runs < MAX_ABNORMAL_ENDS) {
        logger.warn({ err, verificationId, runs }, 'identity pipeline worker ended during the run; trying once more');
        return { retryAt: clock.now(), error: 'worker crashed' };
      }
      logger.error({ err, verificationId }, 'identity pipeline failed; routing to manual review');
      await recordCounted(v.id, parked, errorKind(err));
    }
  };
}
