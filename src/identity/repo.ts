import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client.js';
import { at, bucketOf, type MinuteWindow } from '../db/minutes.js';
import { paged, type Window } from '../db/paged.js';
import {
  identityAttestations,
  identityAuditEvents,
  identityFrames,
  identityHandoffTokens,
  identityReviews,
  identityVerifications,
} from '../db/schema/identity.js';
import { webhookEvents } from '../db/schema/webhooks.js';
import { apiKeys, profiles } from '../db/schema/core.js';
import type { ReviewPolicy, VerificationStatus } from '../db/vocabulary.js';
import type { PriorDecision } from './four-eyes.js';
import { isUuid } from '../lib/uuid.js';

/**
 * The identity API's SQL. Every lookup by id answers null for an id that is not a UUID: a
 * malformed id is simply not found (404), decided here once rather than by each caller.
 */

export type VerificationRow = typeof identityVerifications.$inferSelect;
export type FrameRow = typeof identityFrames.$inferSelect;

export async function insertVerification(tx: DbOrTx, values: typeof identityVerifications.$inferInsert): Promise<VerificationRow> {
  const [row] = await tx.insert(identityVerifications).values(values).returning();
  return row!;
}

/**
 * What the capture page shows of the profile that asks: its display name and privacy policy
 * link; '' and null for an unknown id, which a foreign key rules out.
 */
export async function profileForCapture(db: DbOrTx, profileId: string): Promise<{ name: string; privacyPolicyUrl: string | null }> {
  const [row] = await db
    .select({ name: profiles.name, privacyPolicyUrl: profiles.privacyPolicyUrl })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  return row ?? { name: '', privacyPolicyUrl: null };
}

/** A verification of one profile; null for a non-UUID id (either one), an unknown id or another profile's. */
export async function findVerification(db: DbOrTx, profileId: string, id: string): Promise<VerificationRow | null> {
  if (!isUuid(id) || !isUuid(profileId)) return null;
  const [row] = await db
    .select()
    .from(identityVerifications)
    .where(and(eq(identityVerifications.id, id), eq(identityVerifications.profileId, profileId)));
  return row ?? null;
}

/** A verification of any profile (the pipeline's and the operator's view); null for a non-UUID or unknown id. */
export async function getVerification(db: DbOrTx, id: string): Promise<VerificationRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.id, id));
  return row ?? null;
}

/** Takes the verification's row lock for the rest of the transaction: every change to one verification is serialized. */
export async function lockVerification(tx: DbOrTx, id: string): Promise<VerificationRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await tx.select().from(identityVerifications).where(eq(identityVerifications.id, id)).for('update');
  return row ?? null;
}

export async function updateVerification(tx: DbOrTx, id: string, values: Partial<typeof identityVerifications.$inferInsert>) {
  const [row] = await tx.update(identityVerifications).set(values).where(eq(identityVerifications.id, id)).returning();
  return row!;
}

/**
 * Counts one more pipeline run of a verification in processing, committed on its own before the
 * run's heavy work; the count after it, or null when the verification is not in processing.
 */
export async function countPipelineRun(db: DbOrTx, id: string): Promise<number | null> {
  const [row] = await db
    .update(identityVerifications)
    .set({ pipelineUnfinishedRuns: sql`${identityVerifications.pipelineUnfinishedRuns} + 1` })
    .where(and(eq(identityVerifications.id, id), eq(identityVerifications.status, 'processing')))
    .returning({ runs: identityVerifications.pipelineUnfinishedRuns });
  return row?.runs ?? null;
}

/** Hands back the run counted by countPipelineRun: it ended without deciding, for an ordinary reason. */
export async function uncountPipelineRun(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(identityVerifications)
    .set({ pipelineUnfinishedRuns: sql`greatest(${identityVerifications.pipelineUnfinishedRuns} - 1, 0)` })
    .where(eq(identityVerifications.id, id));
}

export async function insertHandoffToken(tx: DbOrTx, values: typeof identityHandoffTokens.$inferInsert) {
  await tx.insert(identityHandoffTokens).values(values);
}

export async function revokeHandoffTokens(tx: DbOrTx, verificationId: string, at: Date): Promise<number> {
  const rows = await tx
    .update(identityHandoffTokens)
    .set({ revokedAt: at })
    .where(and(eq(identityHandoffTokens.verificationId, verificationId), isNull(identityHandoffTokens.revokedAt)))
    .returning({ id: identityHandoffTokens.id });
  return rows.length;
}

/** The verification behind a live (unrevoked, unexpired) handoff token hash. */
export async function verificationByTokenHash(db: DbOrTx, tokenHash: string, now: Date): Promise<VerificationRow | null> {
  const [row] = await db
    .select({ v: identityVerifications })
    .from(identityHandoffTokens)
    .innerJoin(identityVerifications, eq(identityVerifications.id, identityHandoffTokens.verificationId))
    .where(
      and(
        eq(identityHandoffTokens.tokenHash, tokenHash),
        isNull(identityHandoffTokens.revokedAt),
        gt(identityHandoffTokens.expiresAt, now),
        isNull(identityVerifications.erasedAt),
      ),
    );
  return row?.v ?? null;
}

export async function framesOf(db: DbOrTx, verificationId: string): Promise<FrameRow[]> {
  return db.select().from(identityFrames).where(eq(identityFrames.verificationId, verificationId)).orderBy(asc(identityFrames.step));
}

/** Removes a verification's frames (their blobs are deleted by the caller): capture starts over. */
export async function deleteFrames(tx: DbOrTx, verificationId: string): Promise<void> {
  await tx.delete(identityFrames).where(eq(identityFrames.verificationId, verificationId));
}

export async function insertFrame(tx: DbOrTx, values: typeof identityFrames.$inferInsert): Promise<boolean> {
  const rows = await tx.insert(identityFrames).values(values).onConflictDoNothing().returning({ id: identityFrames.id });
  return rows.length === 1;
}

/**
 * The profile's other verifications that used the same document: the same image, or the same
 * document number read from the image (at any time, for the reviewer's context); oldest first.
 * Erased ones have neither hash any more.
 */
export async function documentUsedBy(
  db: DbOrTx,
  v: { id: string; profileId: string; documentSha256: string | null; documentNumberHash: string | null },
) {
  const same = [
    v.documentSha256 ? eq(identityVerifications.documentSha256, v.documentSha256) : undefined,
    v.documentNumberHash ? eq(identityVerifications.documentNumberHash, v.documentNumberHash) : undefined,
  ].filter((c) => c !== undefined);
  if (same.length === 0) return [];
  return db
    .select()
    .from(identityVerifications)
    .where(and(or(...same), eq(identityVerifications.profileId, v.profileId), ne(identityVerifications.id, v.id)))
    .orderBy(asc(identityVerifications.createdAt), asc(identityVerifications.id))
    .limit(20);
}

/**
 * True when another verification of the same profile, created since `since`, read the same
 * document number (`documentNumberHash`, src/identity/pipeline/document-number.ts). Only the
 * profile's own, as for the image below.
 */
export async function documentNumberUsedElsewhere(
  db: DbOrTx,
  v: { id: string; profileId: string },
  numberHash: string,
  since: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: identityVerifications.id })
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.documentNumberHash, numberHash),
        eq(identityVerifications.profileId, v.profileId),
        ne(identityVerifications.id, v.id),
        gte(identityVerifications.createdAt, since),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * True when another verification of the same profile stored the same document image. Only the
 * profile's own: a verification of one tenant must not land in review, and so tell that tenant
 * something, because of an upload under another tenant (docs/security.md, "Security").
 */
export async function documentUsedElsewhere(db: DbOrTx, v: { id: string; profileId: string }, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.documentSha256, sha256),
        eq(identityVerifications.profileId, v.profileId),
        ne(identityVerifications.id, v.id),
      ),
    );
  return Number(row?.n ?? 0) > 0;
}

export async function openReviewQueue(db: DbOrTx, profileId: string): Promise<VerificationRow[]> {
  return db
    .select()
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.profileId, profileId),
        eq(identityVerifications.status, 'manual_review'),
        isNull(identityVerifications.erasedAt),
      ),
    )
    .orderBy(asc(identityVerifications.updatedAt), asc(identityVerifications.id));
}

/** A reviewer decision as the review rules and the consoles read it: who (the key, its name and holder), what (with the zone an approval carried), why and when. */
const decisionColumns = {
  reviewerKeyId: identityReviews.reviewerKeyId,
  reviewerName: apiKeys.name,
  reviewerHolder: apiKeys.holder,
  mrz: identityReviews.mrz,
  decision: identityReviews.decision,
  declineReasons: identityReviews.declineReasons,
  createdAt: identityReviews.createdAt,
};

/** The reviewer decisions of each verification, oldest first. */
export async function decisionsOf(db: DbOrTx, verificationIds: string[]): Promise<Map<string, PriorDecision[]>> {
  const byVerification = new Map<string, PriorDecision[]>(verificationIds.map((id) => [id, []]));
  if (verificationIds.length === 0) return byVerification;
  const rows = await db
    .select({ verificationId: identityReviews.verificationId, ...decisionColumns })
    .from(identityReviews)
    .innerJoin(apiKeys, eq(apiKeys.id, identityReviews.reviewerKeyId))
    .where(inArray(identityReviews.verificationId, verificationIds))
    .orderBy(asc(identityReviews.ordinal));
  for (const { verificationId, ...decision } of rows) byVerification.get(verificationId)?.push(decision);
  return byVerification;
}

export async function reviewPolicyOf(db: DbOrTx, profileId: string): Promise<ReviewPolicy> {
  const [row] = await db.select({ policy: profiles.reviewPolicy }).from(profiles).where(eq(profiles.id, profileId));
  return row?.policy ?? 'single';
}

export async function insertReview(tx: DbOrTx, values: typeof identityReviews.$inferInsert): Promise<string> {
  const [row] = await tx.insert(identityReviews).values(values).returning({ id: identityReviews.id });
  return row!.id;
}

export async function insertAttestation(tx: DbOrTx, values: typeof identityAttestations.$inferInsert) {
  await tx.insert(identityAttestations).values(values);
}

/** Erasure of everything personal that hangs off a verification, in the caller's transaction. */
export async function eraseDependents(tx: DbOrTx, verificationId: string, at: Date): Promise<void> {
  await revokeHandoffTokens(tx, verificationId, at);
  await tx.delete(identityFrames).where(eq(identityFrames.verificationId, verificationId));
  await tx.update(identityReviews).set({ note: null, mrz: null }).where(eq(identityReviews.verificationId, verificationId));
  await tx
    .update(identityAttestations)
    .set({ value: null, revokedAt: sql`coalesce(${identityAttestations.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(identityAttestations.verificationId, verificationId));
  await scrubDecisionWebhooks(tx, verificationId);
}

/**
 * The decision webhooks carry the backend's reference: erasure nulls it in the outbox too,
 * keeping each payload's key order (a retry then sends the scrubbed body, signed afresh).
 */
async function scrubDecisionWebhooks(tx: DbOrTx, verificationId: string): Promise<void> {
  const events = await tx
    .select({ id: webhookEvents.id, payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(and(isNotNull(webhookEvents.targetUrl), sql`${webhookEvents.body}->'data'->>'verification_id' = ${verificationId}`));
  for (const event of events) {
    const body = JSON.parse(event.payload) as { data: { reference: unknown } };
    body.data.reference = null;
    await tx
      .update(webhookEvents)
      .set({ body, payload: JSON.stringify(body) })
      .where(eq(webhookEvents.id, event.id));
  }
}

/** The newest entry of a verification's audit chain, or null before the first. */
export async function lastAuditEntry(tx: DbOrTx, verificationId: string): Promise<{ seq: number; hash: string } | null> {
  const [last] = await tx
    .select({ seq: identityAuditEvents.seq, hash: identityAuditEvents.hash })
    .from(identityAuditEvents)
    .where(eq(identityAuditEvents.verificationId, verificationId))
    .orderBy(desc(identityAuditEvents.seq))
    .limit(1);
  return last ?? null;
}

export async function insertAuditEntry(tx: DbOrTx, values: typeof identityAuditEvents.$inferInsert): Promise<void> {
  await tx.insert(identityAuditEvents).values(values);
}

/** A verification's audit chain in order, for the reviewer's case view. */
export async function auditTrail(db: DbOrTx, verificationId: string) {
  return db
    .select({
      seq: identityAuditEvents.seq,
      type: identityAuditEvents.type,
      actor: identityAuditEvents.actor,
      data: identityAuditEvents.data,
      createdAt: identityAuditEvents.createdAt,
    })
    .from(identityAuditEvents)
    .where(eq(identityAuditEvents.verificationId, verificationId))
    .orderBy(asc(identityAuditEvents.seq));
}

/** Every reviewer decision on a verification with its note (null once erased), oldest first, for the operator's detail. */
export async function reviewsOf(db: DbOrTx, verificationId: string) {
  return db
    .select({ ...decisionColumns, note: identityReviews.note })
    .from(identityReviews)
    .innerJoin(apiKeys, eq(apiKeys.id, identityReviews.reviewerKeyId))
    .where(eq(identityReviews.verificationId, verificationId))
    .orderBy(asc(identityReviews.ordinal));
}

/**
 * The outbox events of a verification's decision webhooks, oldest first. Bounded by the profile
 * and the verification's creation time, so the profile's events index narrows the scan before
 * the body is read.
 */
export async function decisionWebhookEventIds(db: DbOrTx, v: Pick<VerificationRow, 'id' | 'profileId' | 'createdAt'>): Promise<string[]> {
  const rows = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.profileId, v.profileId),
        gte(webhookEvents.createdAt, v.createdAt),
        isNotNull(webhookEvents.targetUrl),
        sql`${webhookEvents.body}->'data'->>'verification_id' = ${v.id}`,
      ),
    )
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows.map((r) => r.id);
}

// ---- the operator console's reads ------------------------------------------------------------

/** A profile's verifications, newest first, optionally of one status: one page and the total. */
/** Which of a profile's verifications the operator lists: of one status, and/or whose reference holds `reference`. */
export interface VerificationFilter {
  status?: VerificationStatus | undefined;
  reference?: string | undefined;
}

export async function verificationsOfProfile(
  db: DbOrTx,
  profileId: string,
  { status, reference }: VerificationFilter,
  w: Window,
): Promise<{ rows: VerificationRow[]; total: number }> {
  if (!isUuid(profileId)) return { rows: [], total: 0 };
  const where = and(
    eq(identityVerifications.profileId, profileId),
    status ? eq(identityVerifications.status, status) : undefined,
    // Any part of the reference, in any case: `position` takes the text as it is (no LIKE wildcards to escape).
    reference ? sql`position(lower(${reference}) in lower(${identityVerifications.reference})) > 0` : undefined,
  );
  return paged(
    db
      .select()
      .from(identityVerifications)
      .where(where)
      .orderBy(desc(identityVerifications.createdAt), desc(identityVerifications.id))
      .limit(w.limit)
      .offset(w.offset),
    db.select({ n: count() }).from(identityVerifications).where(where),
  );
}

/** Decisions (the pipeline's and the reviewers') per bucket of the window and status, from the audit trail; of one profile when the window names it. */
export async function decisionsPerMinute(db: DbOrTx, w: MinuteWindow) {
  if (w.profileId !== undefined && !isUuid(w.profileId)) return [];
  const ofProfile = w.profileId
    ? sql`and verification_id in (select id from identity_verifications where profile_id = ${w.profileId})`
    : sql``;
  const result = await db.execute(sql`
    select ${bucketOf('created_at', w)} as minute, substr(type, 14) as status, count(*)::int as n
    from identity_audit_events
    where created_at >= ${at(w.from)} and created_at < ${at(w.to)}
      and type in ('verification.approved', 'verification.declined', 'verification.manual_review')
      ${ofProfile}
    group by 1, 2`);
  return rowsOf<{ minute: number; status: string; n: number }>(result);
}

/**
 * Up to `limit` verifications past their profile's retention at `now` (profiles.identity_retention_days
 * days after their decision, not yet erased), oldest decision first within each profile. Each
 * profile's are read from identity_verifications_retention_idx, so erased rows are never scanned.
 */
export async function verificationsPastRetention(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const result = await db.execute(sql`
    select v.id from profiles p
    cross join lateral (
      select id from identity_verifications v
      where v.profile_id = p.id and v.decided_at is not null and v.erased_at is null
        and v.decided_at < ${now.toISOString()}::timestamptz - make_interval(days => p.identity_retention_days)
      order by v.decided_at limit ${limit}) v
    where p.identity_retention_days is not null
    limit ${limit}`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** What a verification holds of its document (the zone, the images, the number's hash): cleared alike by erasure and by a capture restart. */
export const NO_DOCUMENT = {
  mrz: null,
  mrzSource: null,
  mrzRead: null,
  documentBlob: null,
  documentSha256: null,
  documentWidth: null,
  documentHeight: null,
  documentBackBlob: null,
  documentBackSha256: null,
  documentBackWidth: null,
  documentBackHeight: null,
  documentNumberHash: null,
} as const;
