import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { FRAME_SOURCES, VERIFICATION_STATUSES } from '../vocabulary.js';
import { apiKeys, profiles, ts } from './core.js';

/**
 * A verification belongs to the profile of the key that created it. Personal fields
 * (reference, webhook_url, return_url, mrz, document hashes and blobs) are nulled on erasure; the row stays
 * so the id answers forever.
 */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id),
    status: text('status', { enum: VERIFICATION_STATUSES }).notNull(),
    stage: text('stage', { enum: ['document', 'challenge', 'selfie', 'complete'] }).notNull(),
    reference: text('reference'),
    webhookUrl: text('webhook_url'),
    /** Where the hosted capture page's last screens send the person back to; null when none was given. */
    returnUrl: text('return_url'),
    /**
     * The machine-readable zone the verification stands on (lines joined by \n): typed by the
     * device, read from the document image, or confirmed by a reviewer (`mrz_source`); null when none.
     */
    mrz: text('mrz'),
    mrzSource: text('mrz_source', { enum: ['typed', 'image', 'reviewer'] }),
    /** What the document reading saw where a zone should be, for the reviewer; null until read, '' when nothing. */
    mrzRead: text('mrz_read'),
    documentBlob: text('document_blob'),
    documentSha256: text('document_sha256'),
    documentWidth: integer('document_width'),
    documentHeight: integer('document_height'),
    /** The other side of an ID card (the zone's side), when the device sent one. */
    documentBackBlob: text('document_back_blob'),
    documentBackSha256: text('document_back_sha256'),
    documentBackWidth: integer('document_back_width'),
    documentBackHeight: integer('document_back_height'),
    /**
     * SHA-256 over the profile id, the issuing country and the document number of the zone read
     * from the image (src/identity/pipeline/document-number.ts), to find the number used again
     * within the profile without keeping it in clear; null until a zone is read, and after erasure.
     */
    documentNumberHash: text('document_number_hash'),
    /** The challenge steps `[{step, instruction, pose}]` once issued. */
    challengeId: uuid('challenge_id'),
    challenge: jsonb('challenge'),
    decisionReason: text('decision_reason'),
    /** The pipeline's face measurements (docs/faces.md, "Face checks"), never an image; `{}` until measured and after erasure. */
    signals: jsonb('signals').notNull().default({}),
    /** Fault injection by the operator: the next pipeline run throws, and clears this. */
    failNextRun: boolean('fail_next_run').notNull().default(false),
    /**
     * Pipeline runs started and not ended normally: counted (committed) before the heavy work, handed
     * back when a run ends without deciding for an ordinary reason (storage down). A process that died
     * mid-run leaves its run counted, so the job cannot end processes forever (docs/identity.md, "Bounded identity work").
     */
    pipelineUnfinishedRuns: integer('pipeline_unfinished_runs').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    decidedAt: ts('decided_at'),
    erasedAt: ts('erased_at'),
    /** The reviewer key holding the case (src/identity/review-claims.ts); the claim lapses at claimed_until. */
    claimedByKeyId: uuid('claimed_by_key_id').references(() => apiKeys.id),
    claimedUntil: ts('claimed_until'),
    /** When the person answered "No, thanks" on the capture page's consent screen; null otherwise (docs/identity.md, "Consent"). */
    consentDeclinedAt: ts('consent_declined_at'),
  },
  (t) => [
    index('identity_verifications_profile_idx').on(t.profileId, t.status),
    index('identity_verifications_document_idx').on(t.documentSha256),
    // The retention purge's candidates (src/identity/retention.ts): decided and not yet erased, oldest decision first.
    index('identity_verifications_retention_idx')
      .on(t.profileId, t.decidedAt)
      .where(sql`${t.decidedAt} is not null and ${t.erasedAt} is null`),
    index('identity_verifications_document_number_idx').on(t.documentNumberHash),
  ],
);

/** Handoff tokens, stored only as a SHA-256 hash. */
export const identityHandoffTokens = pgTable(
  'identity_handoff_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('identity_handoff_tokens_verification_idx').on(t.verificationId)],
);

/** One selfie frame per challenge step; the unique index makes a second frame for a step impossible. */
export const identityFrames = pgTable(
  'identity_frames',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    step: integer('step').notNull(),
    blobKey: text('blob_key').notNull(),
    sha256: text('sha256').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** `camera`: taken by the page's live camera; `file`: chosen from the device because no camera could be used. */
    source: text('source', { enum: FRAME_SOURCES }).notNull().default('camera'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('identity_frames_step_uq').on(t.verificationId, t.step)],
);

/** A reviewer's decision; the note is personal data and is nulled on erasure. */
export const identityReviews = pgTable(
  'identity_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    reviewerKeyId: uuid('reviewer_key_id')
      .notNull()
      .references(() => apiKeys.id),
    decision: text('decision', { enum: ['approve', 'decline'] }).notNull(),
    note: text('note'),
    /** A decline's reasons from DECLINE_REASONS (identity/schemas.ts); empty for an approval. */
    declineReasons: text('decline_reasons')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** 1 for the case's first decision, 2 for the second (four-eyes review): the order even within one millisecond. */
    ordinal: integer('ordinal').notNull().default(1),
    /**
     * The zone an approval carried (lines joined by \n, normalised), kept with the decision until
     * the deciding approval confirms it: personal data, nulled on erasure.
     */
    mrz: text('mrz'),
    createdAt: ts('created_at').notNull(),
  },
  // A case's decisions are read in order (review, case views) and their notes erased by verification.
  (t) => [index('identity_reviews_verification_idx').on(t.verificationId, t.ordinal)],
);

export const identityAttestations = pgTable(
  'identity_attestations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    claim: text('claim').notNull(),
    /** The attested value; null once the verification is erased. */
    value: jsonb('value'),
    kid: text('kid').notNull(),
    issuedAt: ts('issued_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('identity_attestations_verification_idx').on(t.verificationId)],
);

/**
 * Append-only audit log, one hash chain per verification: hash = SHA-256 over the previous
 * hash and this entry's canonical content. Entries carry no personal data, so erasure never
 * has to touch (and break) the chain.
 */
export const identityAuditEvents = pgTable(
  'identity_audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    actor: text('actor').notNull(),
    data: jsonb('data').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('identity_audit_events_seq_uq').on(t.verificationId, t.seq),
    // The operator's last hour of decisions (GET /admin/v1/activity); append-only in created_at order, as webhook_attempts.
    index('identity_audit_events_created_brin').using('brin', t.createdAt),
  ],
);
