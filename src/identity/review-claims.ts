import type { KeyPrincipal } from '../auth/api-keys.js';
import { keyNames } from '../auth/repo.js';
import type { DbOrTx } from '../db/client.js';
import { appendAudit } from './audit.js';
import { identityErrors as errors } from './errors.js';
import * as repo from './repo.js';
import type { VerificationRow } from './repo.js';
import { keyActor, type IdentityDeps } from './deps.js';

/** How long a claim holds a case for one reviewer before it lapses by itself (docs/consoles.md, "Consoles"). */
const REVIEW_CLAIM_MS = 15 * 60 * 1000;

/** Who holds a case now, as the queue and the case view show it; null when nobody does or the claim lapsed. */
export interface ClaimView {
  reviewer: string;
  reviewer_name: string | null;
  until: string;
}

/** The live claim on a case (lapsed claims read as none). */
function liveClaim(v: Pick<VerificationRow, 'claimedByKeyId' | 'claimedUntil'>, now: Date) {
  if (!v.claimedByKeyId || !v.claimedUntil || v.claimedUntil.getTime() <= now.getTime()) return null;
  return { keyId: v.claimedByKeyId, until: v.claimedUntil };
}

/** The claims of `rows` as views, with the names of the keys holding them. */
export async function claimViews(db: DbOrTx, profileId: string, rows: VerificationRow[], now: Date): Promise<Map<string, ClaimView>> {
  const live = rows.map((v) => [v.id, liveClaim(v, now)] as const).filter((e): e is [string, { keyId: string; until: Date }] => !!e[1]);
  const names = await keyNames(
    db,
    profileId,
    live.map(([, c]) => c.keyId),
  );
  return new Map(
    live.map(([id, c]) => [
      id,
      { reviewer: `reviewer:${c.keyId}`, reviewer_name: names.get(c.keyId) ?? null, until: c.until.toISOString() },
    ]),
  );
}

/**
 * A reviewer claims a case in review so others see it is being worked on: the claim holds for
 * REVIEW_CLAIM_MS and is renewed by claiming again; another key's live claim refuses (409).
 * Claims never block a decision; a decision ends the claim. Every claim (a renewal too) and every
 * release of a held claim is an audit event with the reviewer key as actor, so the trail says who
 * worked on a case and when, beside what they saw and decided.
 */
export function createReviewClaimService({ db, clock }: Pick<IdentityDeps, 'db' | 'clock'>) {
  async function withCase<T>(principal: KeyPrincipal, id: string, fn: (tx: DbOrTx, v: VerificationRow, now: Date) => Promise<T>) {
    return db.transaction(async (tx) => {
      const found = await repo.findVerification(tx, principal.profileId, id);
      const v = found ? await repo.lockVerification(tx, found.id) : null;
      if (!v) throw errors.verificationNotFound();
      if (v.erasedAt) throw errors.verificationErased();
      if (v.status !== 'manual_review') throw errors.notInReview(v.status);
      return fn(tx, v, clock.now());
    });
  }
  const viewOf = async (tx: DbOrTx, principal: KeyPrincipal, v: VerificationRow, now: Date) => ({
    claim: (await claimViews(tx, principal.profileId, [v], now)).get(v.id) ?? null,
  });

  return {
    async claim(principal: KeyPrincipal, id: string) {
      return withCase(principal, id, async (tx, v, now) => {
        const held = liveClaim(v, now);
        if (held && held.keyId !== principal.keyId) throw errors.claimedByAnother(held.until.toISOString());
        const until = new Date(now.getTime() + REVIEW_CLAIM_MS);
        const claimed = await repo.updateVerification(tx, v.id, { claimedByKeyId: principal.keyId, claimedUntil: until });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'review.claimed',
          actor: keyActor(principal),
          data: { until: until.toISOString() },
        });
        return viewOf(tx, principal, claimed, now);
      });
    },

    /** Gives the case back; releasing a case nobody holds is a no-op, another key's live claim refuses (409). */
    async release(principal: KeyPrincipal, id: string) {
      return withCase(principal, id, async (tx, v, now) => {
        const held = liveClaim(v, now);
        if (held && held.keyId !== principal.keyId) throw errors.claimedByAnother(held.until.toISOString());
        const released = await repo.updateVerification(tx, v.id, { claimedByKeyId: null, claimedUntil: null });
        // Only giving back a claim this key held is an event; a release of nothing changes nothing.
        if (held) await appendAudit(tx, clock, { verificationId: v.id, type: 'review.released', actor: keyActor(principal) });
        return viewOf(tx, principal, released, now);
      });
    },
  };
}

export type ReviewClaimService = ReturnType<typeof createReviewClaimService>;
