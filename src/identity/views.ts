import type { z } from 'zod';
import { parse as parseMrz } from 'mrz';
import type { PublishedKey } from '../signing-keys/service.js';
import { toIso, toIsoOrNull } from '../lib/time.js';
import { storedChallenge } from './capture/challenge.js';
import type { FrameRow, VerificationRow } from './repo.js';
import type * as s from './schemas.js';
import { sniffImageType } from './uploads/strip-metadata.js';
import { approvalToMatch, decidedBefore, reviewStanding, type PriorDecision } from './four-eyes.js';
import type { ReviewPolicy } from '../db/vocabulary.js';

/** How rows become the identity API's answers: one place, shared by the API and the operator console. */

/** The verification as its backend sees it; an erased one keeps only id, status and the erasure. */
export function verificationView(v: VerificationRow): z.infer<typeof s.verification> {
  if (v.erasedAt) return { id: v.id, status: v.status, erased: true, erased_at: toIso(v.erasedAt) };
  return {
    id: v.id,
    status: v.status,
    reference: v.reference,
    webhook_url: v.webhookUrl,
    return_url: v.returnUrl,
    stage: v.stage,
    decision_reason: v.decisionReason,
    document: documentSummaryView(v),
    created_at: toIso(v.createdAt),
    updated_at: toIso(v.updatedAt),
    decided_at: toIsoOrNull(v.decidedAt),
    consent_declined_at: toIsoOrNull(v.consentDeclinedAt),
    erased: false,
  };
}

/** The document's type, country and expiry from the verification's zone; null without one. */
function documentSummaryView(v: VerificationRow): z.infer<typeof s.documentSummary> {
  if (!v.mrz || !v.mrzSource) return null;
  try {
    const { format, fields } = parseMrz(v.mrz.split('\n'));
    const expiry = fields.expirationDate;
    return {
      type: format === 'TD3' ? 'passport' : 'id_card',
      issuing_country: (fields.issuingState ?? '').replace(/<+$/, ''),
      // ICAO 9303 expiry dates are two-digit years of this century.
      expires_on: expiry && /^\d{6}$/.test(expiry) ? `20${expiry.slice(0, 2)}-${expiry.slice(2, 4)}-${expiry.slice(4, 6)}` : null,
      mrz_source: v.mrzSource,
    };
  } catch {
    return null;
  }
}

export interface IssuedHandoff {
  token: string;
  expiresAt: Date;
}

/** `capture_url` is added by the route, which knows the public address. */
export function createdVerificationView(
  v: VerificationRow,
  handoff: IssuedHandoff,
): Omit<z.infer<typeof s.createdVerification>, 'capture_url'> {
  return {
    id: v.id,
    status: v.status,
    reference: v.reference,
    webhook_url: v.webhookUrl!,
    return_url: v.returnUrl,
    handoff_token: handoff.token,
    handoff_expires_at: toIso(handoff.expiresAt),
    created_at: toIso(v.createdAt),
  };
}

export function handoffView(verificationId: string, handoff: IssuedHandoff): Omit<z.infer<typeof s.handoff>, 'capture_url'> {
  return { verification_id: verificationId, handoff_token: handoff.token, handoff_expires_at: toIso(handoff.expiresAt) };
}

export function reviewQueueItemView(
  v: VerificationRow,
  prior: PriorDecision[],
  claim: z.infer<typeof s.reviewClaim>,
): z.infer<typeof s.reviewQueue>['items'][number] {
  return {
    id: v.id,
    status: 'manual_review',
    reason: v.decisionReason,
    reference: v.reference,
    created_at: toIso(v.createdAt),
    updated_at: toIso(v.updatedAt),
    ...reviewStanding(prior),
    claim,
  };
}

export function attestationView(a: {
  id: string;
  claim: z.infer<typeof s.attestation>['claim'];
  value: boolean | string;
  verificationId: string;
  issuedAt: Date;
  jws: string;
}): z.infer<typeof s.attestation> {
  return { id: a.id, claim: a.claim, value: a.value, verification_id: a.verificationId, issued_at: toIso(a.issuedAt), jws: a.jws };
}

/** A published Ed25519 key as an OKP JWK; the stored key is the raw 32 bytes in base64. */
export function jwkView(k: PublishedKey): z.infer<typeof s.jwks>['keys'][number] {
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: Buffer.from(k.publicKey, 'base64').toString('base64url'),
    kid: k.kid,
    alg: 'EdDSA',
    use: 'sig',
    key_ops: ['verify'],
    purpose: k.purpose,
  };
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

/** The zone as the reviewer sees it: its fields, where it came from, and what the reading saw. */
function reviewZoneView(v: VerificationRow): Record<string, string | null> | null {
  if (!v.mrz && v.mrzRead === null) return null;
  return { ...mrzFields(v.mrz), source: v.mrz ? v.mrzSource : null, lines: v.mrzRead ?? '' };
}

/** The approval a deciding approval must match, with the zone it carried (personal data: the case view only, never the queue). */
function firstApprovalView(d: PriorDecision | undefined): z.infer<typeof s.reviewCase>['first_approval'] {
  if (!d) return null;
  return {
    reviewer: `reviewer:${d.reviewerKeyId}`,
    reviewer_name: d.reviewerName ?? null,
    decided_at: toIso(d.createdAt),
    mrz: d.mrz ? { ...mrzFields(d.mrz), lines: d.mrz } : null,
  };
}

/** What the reviewer's case view needs besides the row: its frames, audit trail and the stored images' types. */
interface CaseMaterial {
  frames: FrameRow[];
  audit: { type: string; actor: string; createdAt: Date }[];
  /** Content type of each stored image by its blob key. */
  contentTypes: Map<string, string>;
  /** The reviewer decisions recorded on the case, oldest first. */
  decisions: PriorDecision[];
  /** The key id of the reviewer looking, and who holds that key. */
  viewerKeyId: string;
  viewerHolder: string | null;
  /** The profile's review policy: under four_eyes the case shows the approval the deciding one must match. */
  policy: ReviewPolicy;
  /** Names of the profile's keys by id, for the actors of the audit trail. */
  keyNames: Map<string, string>;
  /** Who holds the case now. */
  claim: z.infer<typeof s.reviewClaim>;
  /** The profile's other verifications with the same document image, and whether reviewers may open each. */
  documentUsedBy: { v: VerificationRow; inReach: boolean }[];
}

/** The key id inside an actor written by keyActor (`reviewer:<id>`, `backend:<id>`), or null for `operator`, `device`… */
export function actorKeyId(actor: string): string | null {
  const match = /^(?:reviewer|backend):([0-9a-f-]{36})$/.exec(actor);
  return match ? match[1]! : null;
}

/** The case as a reviewer judges it; images are linked under /v1/review/{id}/images, never inlined. */
export function reviewCaseView(
  v: VerificationRow,
  { frames, audit, contentTypes, decisions, viewerKeyId, viewerHolder, policy, keyNames, claim, documentUsedBy }: CaseMaterial,
): z.infer<typeof s.reviewCase> {
  const base = `/v1/review/${v.id}/images`;
  const typeOf = (key: string | null | undefined) => (key ? (contentTypes.get(key) ?? null) : null);
  return {
    id: v.id,
    status: v.status,
    reason: v.decisionReason,
    reference: v.reference,
    created_at: toIso(v.createdAt),
    document: {
      image_url: v.documentBlob ? `${base}/document` : null,
      content_type: typeOf(v.documentBlob),
      width: v.documentWidth,
      height: v.documentHeight,
      back: v.documentBackBlob
        ? {
            image_url: `${base}/document-back`,
            content_type: typeOf(v.documentBackBlob),
            width: v.documentBackWidth,
            height: v.documentBackHeight,
          }
        : null,
      mrz: reviewZoneView(v),
    },
    steps: storedChallenge(v).map((step) => {
      const frame = frames.find((f) => f.step === step.step);
      return {
        step: step.step,
        instruction: step.instruction,
        pose: step.pose ?? null,
        image_url: frame ? `${base}/selfie/${step.step}` : null,
        content_type: typeOf(frame?.blobKey),
        width: frame?.width ?? null,
        height: frame?.height ?? null,
        source: frame?.source ?? null,
      };
    }),
    signals: (v.signals ?? {}) as Record<string, unknown>,
    audit: audit.map((e) => ({
      type: e.type,
      at: toIso(e.createdAt),
      actor: e.actor,
      actor_name: keyNames.get(actorKeyId(e.actor) ?? '') ?? null,
    })),
    // A decided case is no longer waiting on anyone; its decisions stay listed.
    ...(v.status === 'manual_review'
      ? reviewStanding(decisions)
      : { ...reviewStanding(decisions), awaiting_second_review: false, review_disagreement: false }),
    first_approval: v.status === 'manual_review' ? firstApprovalView(approvalToMatch(policy, decisions)) : null,
    decided_by_you: decidedBefore(decisions, viewerKeyId, viewerHolder),
    claim: v.status === 'manual_review' ? claim : null,
    document_used_by: documentUsedBy.map(({ v: other, inReach }) => ({
      id: other.id,
      status: other.status,
      created_at: toIso(other.createdAt),
      in_reach: inReach,
    })),
  };
}
