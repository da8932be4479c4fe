import type { KeyPrincipal } from '../auth/api-keys.js';
import type { DbOrTx } from '../db/client.js';
import type { MinuteWindow } from '../db/minutes.js';
import type { Window } from '../db/paged.js';
import type { Clock } from '../lib/clock.js';
import { keyHolder } from '../auth/repo.js';
import { forgetAnswersOf } from '../idempotency/repo.js';
import { randomToken, sha256Hex } from '../lib/crypto.js';
import { WebhookTargetError } from '../webhooks/ssrf.js';
import type { WebhookPlatform } from '../webhooks/types.js';
import { parse as parseMrz } from 'mrz';
import { appendAudit } from './audit.js';
import { approvalToMatch, decidedBefore, weighDecision, zoneDifference } from './four-eyes.js';
import { claimViews } from './review-claims.js';
import { identityErrors as errors } from './errors.js';
import { normalisedZone } from './pipeline/decide.js';
import { readMrz } from './pipeline/mrz.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import { keyActor, type IdentityDeps } from './deps.js';
import { createdVerificationView, handoffView, reviewQueueItemView, verificationView, type IssuedHandoff } from './views.js';
import { sendDecisionWebhook } from './webhooks.js';

const HANDOFF_TTL_MS = 30 * 60 * 1000;

/**
 * A new verification awaiting capture, with its first handoff token, for the partner's backend
 * or the operator. A webhook URL, when given, is checked now, as registered webhook endpoints are,
 * so an address the decision webhook can never reach is refused here and not found later in the
 * delivery log; without one, the decision is only read (polling, the consoles).
 */
async function openVerification(
  { db, clock, webhooks }: Pick<IdentityDeps, 'db' | 'clock' | 'webhooks'>,
  profileId: string,
  actor: string,
  input: OpenInput,
): Promise<{ v: VerificationRow; handoff: IssuedHandoff }> {
  await checkTarget(webhooks, input.webhook_url, errors.webhookUrlRefused);
  // The return address gets the webhook's checks too, so one rule covers every address a partner gives.
  await checkTarget(webhooks, input.return_url, errors.returnUrlRefused);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const v = await repo.insertVerification(tx, {
      profileId,
      status: 'awaiting_capture',
      stage: 'document',
      reference: input.reference ?? null,
      webhookUrl: input.webhook_url ?? null,
      returnUrl: input.return_url ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const handoff = await issueHandoffToken(tx, clock, v.id);
    await appendAudit(tx, clock, { verificationId: v.id, type: 'verification.created', actor, data: { status: 'awaiting_capture' } });
    await appendAudit(tx, clock, {
      verificationId: v.id,
      type: 'handoff.issued',
      actor,
      data: { expires_at: handoff.expiresAt.toISOString() },
    });
    return { v, handoff };
  });
}

type OpenInput = {
  webhook_url?: string | null | undefined;
  reference?: string | null | undefined;
  return_url?: string | null | undefined;
};

/** Checks an address the partner gave as registered webhook endpoints are checked; `refused` names the field in the 422. */
async function checkTarget(webhooks: WebhookPlatform, url: string | null | undefined, refused: (reason: string) => Error): Promise<void> {
  if (!url) return;
  try {
    await webhooks.checkUrl(url);
  } catch (err) {
    if (err instanceof WebhookTargetError) throw refused(err.message);
    throw err;
  }
}

/** 32 random bytes, URL-safe base64 without padding; only the hash is kept. */
async function issueHandoffToken(tx: DbOrTx, clock: Clock, verificationId: string): Promise<IssuedHandoff> {
  const token = randomToken(32);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + HANDOFF_TTL_MS);
  await repo.insertHandoffToken(tx, { verificationId, tokenHash: sha256Hex(token), expiresAt, createdAt: now });
  return { token, expiresAt };
}

/**
 * A fresh handoff token for a locked verification, by the backend or the operator (`actor`):
 * every earlier one stops working. Only while capture is still open.
 */
export async function issueHandoff(tx: DbOrTx, clock: Clock, v: VerificationRow, actor: string): Promise<IssuedHandoff> {
  if (v.erasedAt) throw errors.verificationErased();
  if (v.stage === 'complete') throw errors.captureComplete();
  await repo.revokeHandoffTokens(tx, v.id, clock.now());
  // A person who declined consent is asked again on the new link (docs/identity.md, "Consent and capture").
  if (v.consentDeclinedAt) await repo.updateVerification(tx, v.id, { consentDeclinedAt: null, updatedAt: clock.now() });
  const handoff = await issueHandoffToken(tx, clock, v.id);
  await appendAudit(tx, clock, {
    verificationId: v.id,
    type: 'handoff.issued',
    actor,
    data: { expires_at: handoff.expiresAt.toISOString() },
  });
  return handoff;
}

/**
 * Erasure of a locked verification, by the partner's backend or by the profile's retention
 * (docs/operations.md, "Retention"): files deleted, personal fields nulled, tokens and attestations revoked,
 * audit `verification.erased` by `actor`. Blobs are removed inside the transaction, so a failed
 * erasure rolls back and can simply be retried. An erased verification is answered as it is.
 */
export async function eraseVerification(
  tx: DbOrTx,
  { clock, blobs }: Pick<IdentityDeps, 'clock' | 'blobs'>,
  v: VerificationRow,
  actor: string,
): Promise<VerificationRow> {
  if (v.erasedAt) return v;
  const now = clock.now();
  const frames = await repo.framesOf(tx, v.id);
  for (const key of [v.documentBlob, v.documentBackBlob, ...frames.map((f) => f.blobKey)]) if (key) await blobs.delete(key);
  await repo.eraseDependents(tx, v.id, now);
  // Kept Idempotency-Key answers repeat the reference and webhook URL.
  await forgetAnswersOf(tx, v.id);
  const erased = await repo.updateVerification(tx, v.id, {
    reference: null,
    webhookUrl: null,
    returnUrl: null,
    ...repo.NO_DOCUMENT,
    challenge: null,
    signals: {},
    erasedAt: now,
    updatedAt: now,
  });
  await appendAudit(tx, clock, { verificationId: v.id, type: 'verification.erased', actor });
  return erased;
}

export function createVerificationService({ db, clock, blobs, webhooks }: IdentityDeps) {
  async function load(principal: KeyPrincipal, id: string): Promise<VerificationRow> {
    const v = await repo.findVerification(db, principal.profileId, id);
    if (!v) throw errors.verificationNotFound();
    return v;
  }

  /** Runs `fn` with the verification locked; 404 unless it belongs to the caller's profile. */
  async function withLocked<T>(principal: KeyPrincipal, id: string, fn: (tx: DbOrTx, v: VerificationRow) => Promise<T>): Promise<T> {
    await load(principal, id);
    return db.transaction(async (tx) => {
      const v = await repo.lockVerification(tx, id);
      if (!v) throw errors.verificationNotFound();
      return fn(tx, v);
    });
  }

  return {
    async create(principal: KeyPrincipal, input: OpenInput & { webhook_url: string }) {
      const { v, handoff } = await openVerification({ db, clock, webhooks }, principal.profileId, keyActor(principal), input);
      return createdVerificationView(v, handoff);
    },

    async get(principal: KeyPrincipal, id: string) {
      return verificationView(await load(principal, id));
    },

    /** A fresh handoff token; every earlier one stops working. Only while capture is still open. */
    async reissueHandoff(principal: KeyPrincipal, id: string) {
      return withLocked(principal, id, async (tx, v) => handoffView(v.id, await issueHandoff(tx, clock, v, keyActor(principal))));
    },

    async revokeHandoff(principal: KeyPrincipal, id: string) {
      return withLocked(principal, id, async (tx, v) => {
        const revoked = await repo.revokeHandoffTokens(tx, v.id, clock.now());
        if (revoked > 0)
          await appendAudit(tx, clock, {
            verificationId: v.id,
            type: 'handoff.revoked',
            actor: keyActor(principal),
            data: { tokens: revoked },
          });
        return { verification_id: v.id, handoff_revoked: true as const };
      });
    },

    /** Erasure by the partner's backend (`eraseVerification`). */
    async erase(principal: KeyPrincipal, id: string) {
      return withLocked(principal, id, async (tx, v) =>
        verificationView(await eraseVerification(tx, { clock, blobs }, v, keyActor(principal))),
      );
    },

    async reviewQueue(principal: KeyPrincipal) {
      const rows = await repo.openReviewQueue(db, principal.profileId);
      const decisions = await repo.decisionsOf(
        db,
        rows.map((v) => v.id),
      );
      const claims = await claimViews(db, principal.profileId, rows, clock.now());
      return { items: rows.map((v) => reviewQueueItemView(v, decisions.get(v.id) ?? [], claims.get(v.id) ?? null)) };
    },

    /**
     * A reviewer's decision, under the row lock so racing decisions serialize: compare-and-set on
     * manual_review, so of two racing final decisions exactly one wins. Under the profile's
     * `four_eyes` policy a decision is final only when a second reviewer agrees (docs/identity.md, "Four-eyes
     * review"); until then it is recorded and the verification stays in review. A reviewer (a key,
     * or every key of one holder) never decides one case twice. An approval's zone stays with its
     * decision until the deciding approval carries the same one: only then is it the
     * verification's zone, so one reviewer alone never sets whose document this is.
     */
    async review(
      principal: KeyPrincipal,
      id: string,
      input: { decision: 'approve' | 'decline'; note: string; decline_reasons?: string[] | undefined; mrz?: string | undefined },
    ) {
      if (input.decision === 'approve' && input.decline_reasons?.length) throw errors.reasonsWithApproval();
      const zone = input.mrz === undefined ? null : confirmedZone(input.mrz, input.decision, clock.now());
      const outcome = await withLocked(principal, id, async (tx, v) => {
        if (v.erasedAt) throw errors.verificationErased();
        if (v.status !== 'manual_review') throw errors.notInReview(v.status);
        const prior = (await repo.decisionsOf(tx, [v.id])).get(v.id) ?? [];
        if (prior.some((d) => d.reviewerKeyId === principal.keyId)) throw errors.alreadyDecidedByThisKey();
        if (decidedBefore(prior, principal.keyId, await keyHolder(tx, principal.keyId))) throw errors.alreadyDecidedByThisHolder();
        const policy = await repo.reviewPolicyOf(tx, v.profileId);
        const firstApproval = input.decision === 'approve' ? approvalToMatch(policy, prior) : undefined;
        const difference = firstApproval ? zoneDifference(firstApproval.mrz ?? null, zone) : null;
        if (difference !== null) {
          // Refused, but on the record: a second reviewer tried to settle the case on another zone.
          await appendAudit(tx, clock, {
            verificationId: v.id,
            type: 'review.mrz_mismatch',
            actor: keyActor(principal),
            data: { decision: input.decision, mrz: attached(zone), first_approval_mrz: attached(firstApproval!.mrz ?? null) },
          });
          return { refused: errors.zoneDiffersFromFirstApproval(difference) };
        }
        const weight = weighDecision(policy, prior, input.decision);
        const now = clock.now();
        const reviewId = await repo.insertReview(tx, {
          verificationId: v.id,
          reviewerKeyId: principal.keyId,
          decision: input.decision,
          note: input.note.trim(),
          declineReasons: input.decision === 'decline' ? (input.decline_reasons ?? []) : [],
          ordinal: prior.length + 1,
          // Kept with the decision; the verification's zone only once a decision is final.
          mrz: zone,
          createdAt: now,
        });
        const zoneData = { mrz: attached(zone) };
        if (weight !== 'final') {
          // The decision ends any claim: the case waits for another reviewer.
          const waiting = await repo.updateVerification(tx, v.id, { updatedAt: now, claimedByKeyId: null, claimedUntil: null });
          await appendAudit(tx, clock, {
            verificationId: v.id,
            type: weight === 'first' ? 'review.first_decision' : 'review.disagreement',
            actor: keyActor(principal),
            data: { review_id: reviewId, decision: input.decision, ...zoneData },
          });
          return { answer: { review_id: reviewId, verification: verificationView(waiting) } };
        }
        if (zone) {
          await repo.updateVerification(tx, v.id, { mrz: zone, mrzSource: 'reviewer', updatedAt: now });
          await appendAudit(tx, clock, {
            verificationId: v.id,
            type: 'review.mrz_confirmed',
            actor: keyActor(principal),
            data: { review_id: reviewId },
          });
        }
        const status = input.decision === 'approve' ? 'approved' : 'declined';
        const decided = await repo.updateVerification(tx, v.id, {
          status,
          decisionReason: `reviewer_${input.decision}d`,
          decidedAt: now,
          updatedAt: now,
          claimedByKeyId: null,
          claimedUntil: null,
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'review.decided',
          actor: keyActor(principal),
          // Whether the zone matched the first approval's: "same" (any other was refused above), null when nothing was compared.
          data: { review_id: reviewId, decision: input.decision, ...zoneData, mrz_against_first: firstApproval ? 'same' : null },
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: `verification.${status}`,
          actor: keyActor(principal),
          data: { reason: decided.decisionReason },
        });
        await sendDecisionWebhook(tx, webhooks, decided, status);
        return { answer: { review_id: reviewId, verification: verificationView(decided) } };
      });
      // Thrown after the commit, so the refusal's audit entry stays.
      if ('refused' in outcome) throw outcome.refused;
      return outcome.answer;
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;

/** Whether a decision carried a zone, as the audit chain says it: never the zone, which is personal data. */
const attached = (zone: string | null | undefined) => (zone ? 'attached' : 'none');

/** A zone a reviewer confirms: with an approval only, parsing as ICAO 9303 with every check digit holding. */
function confirmedZone(text: string, decision: 'approve' | 'decline', now: Date): string {
  if (decision !== 'approve') throw errors.reviewZoneWithDecline();
  const zone = normalisedZone(text);
  const lines = zone.split('\n');
  let format: string | undefined;
  try {
    format = parseMrz(lines).format;
  } catch {
    throw errors.reviewZoneInvalid();
  }
  if (!['TD1', 'TD2', 'TD3'].includes(format) || !readMrz(zone, now).valid) throw errors.reviewZoneInvalid();
  return zone;
}

export type { VerificationFilter } from './repo.js';

/** What the operator API does with verifications of any profile. */
/**
 * What the operator console reads of identity (docs/consoles.md, "Consoles"): a profile's verifications,
 * and the decisions per minute of the operator's last hour. Reads only.
 */
export function createIdentityOperatorReads(db: DbOrTx) {
  return {
    /** A profile's verifications, newest first, optionally of one status or reference: one page and the total. */
    async verifications(profileId: string, filter: repo.VerificationFilter, w: Window) {
      const { rows, total } = await repo.verificationsOfProfile(db, profileId, filter, w);
      return { items: rows.map(verificationView), total };
    },

    /** The pipeline's and the reviewers' decisions in the window, per minute (since the Unix epoch) and status. */
    decisionsPerMinute: (w: MinuteWindow) => repo.decisionsPerMinute(db, w),
  };
}

export function createIdentityOperatorService({ db, clock, webhooks }: Pick<IdentityDeps, 'db' | 'clock' | 'webhooks'>) {
  return {
    /**
     * Starts a verification for a profile from the operator console (docs/consoles.md, Consoles): no
     * partner backend needed; the decision webhook only when a URL is given. The audit trail
     * names the operator as its creator. The caller has checked that the profile exists.
     */
    async start(profileId: string, input: OpenInput) {
      const { v, handoff } = await openVerification({ db, clock, webhooks }, profileId, 'operator', input);
      return { ...createdVerificationView(v, handoff), webhook_url: v.webhookUrl };
    },

    /**
     * Makes the verification's next pipeline run fail (it throws InjectedPipelineFault and the
     * verification moves to manual_review). Stored in the row, so any instance's run consumes it.
     * False when no such verification exists.
     */
    async failNextRun(id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const v = await repo.lockVerification(tx, id);
        if (!v) return false;
        await repo.updateVerification(tx, v.id, { failNextRun: true });
        await appendAudit(tx, clock, { verificationId: v.id, type: 'operator.fault_injected', actor: 'operator' });
        return true;
      });
    },
  };
}
