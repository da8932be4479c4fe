import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { KeyPrincipal } from '../auth/api-keys.js';
import { liveSigningKey, publishedKeys } from '../signing-keys/service.js';
import { appendAudit } from './audit.js';
import { identityErrors as errors } from './errors.js';
import { ageAt, readMrz, startOfDay } from './pipeline/mrz.js';
import * as repo from './repo.js';
import type { ClaimName } from './claims.js';
import { keyActor, type IdentityDeps } from './deps.js';
import { attestationView, jwkView } from './views.js';

/** How long an attestation JWS stays valid. */
const ATTESTATION_TTL_SEC = 90 * 24 * 3600;

/**
 * The claim's value from the verification's data, or null when the data cannot support it. A
 * zone only the capturing device typed supports no claim: the person being verified could type
 * anything; the zone must have been read from the document image or confirmed by a reviewer.
 */
function claimValue(claim: ClaimName, mrzText: string | null, source: string | null, now: Date): boolean | string | null {
  if (claim === 'identity_verified') return true;
  if (!mrzText || (source !== 'image' && source !== 'reviewer')) return null;
  const mrz = readMrz(mrzText, now);
  switch (claim) {
    case 'age_over_18':
      return mrz.birthDate ? ageAt(mrz.birthDate, now) >= 18 : null;
    case 'age_over_21':
      return mrz.birthDate ? ageAt(mrz.birthDate, now) >= 21 : null;
    case 'document_unexpired':
      return mrz.expirationDate ? mrz.expirationDate >= startOfDay(now) : null;
    case 'nationality':
      return mrz.nationality;
  }
}

/**
 * `issuer` is `<PUBLIC_URL>/v1`. One platform key signs every profile's attestations, so each
 * names its issuer (`iss`) and the profile it was issued to (`aud`): a relying party accepts
 * only its own profile id as audience (docs/security.md, "What a relying party of an attestation must check").
 */
export function createAttestationService({ db, clock, dataKeys }: IdentityDeps, issuer: string) {
  return {
    /** Attests one claim of an approved verification as an EdDSA compact JWS (kid in the header). */
    async issue(principal: KeyPrincipal, id: string, claim: ClaimName) {
      const v = await repo.findVerification(db, principal.profileId, id);
      if (!v) throw errors.verificationNotFound();
      if (v.erasedAt) throw errors.verificationErased();
      if (v.status !== 'approved') throw errors.notApproved(v.status);
      const now = clock.now();
      const value = claimValue(claim, v.mrz, v.mrzSource, now);
      if (value === null) throw errors.claimUnsupported(claim);
      const key = await liveSigningKey(db, clock, dataKeys, 'attestation');
      const attestationId = randomUUID();
      const iat = Math.floor(now.getTime() / 1000);
      const exp = iat + ATTESTATION_TTL_SEC;
      const jws = await new SignJWT({ claim, value, [claim]: value })
        .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
        .setSubject(v.id)
        .setIssuer(issuer)
        .setAudience(v.profileId)
        .setJti(attestationId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key.privateKey);
      await db.transaction(async (tx) => {
        await repo.lockVerification(tx, v.id);
        await repo.insertAttestation(tx, {
          id: attestationId,
          verificationId: v.id,
          claim,
          value,
          kid: key.kid,
          issuedAt: now,
          expiresAt: new Date(exp * 1000),
        });
        await appendAudit(tx, clock, {
          verificationId: v.id,
          type: 'attestation.issued',
          actor: keyActor(principal),
          data: { attestation_id: attestationId, claim },
        });
      });
      return attestationView({ id: attestationId, claim, value, verificationId: v.id, issuedAt: now, jws });
    },

    /** Every attestation and identity-webhook key, live and retired, as OKP/Ed25519 JWKs. */
    async jwks() {
      const keys = [...(await publishedKeys(db, 'attestation')), ...(await publishedKeys(db, 'identity-webhook'))];
      return { keys: keys.map(jwkView) };
    },
  };
}

export type AttestationService = ReturnType<typeof createAttestationService>;
