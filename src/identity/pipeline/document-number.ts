import { createHash } from 'node:crypto';

/** How long a document number counts as used within a profile (docs/document-reading.md, "Document reading"). */
export const NUMBER_REUSE_DAYS = 90;

/**
 * What the pipeline stores to find a document number used again (docs/document-reading.md, "Document reading"):
 * SHA-256 over the profile id, the issuing country and the number, each ended by a NUL, so the
 * number itself is never kept beside the zone that erasure nulls. The profile id in it keeps
 * one tenant's digests useless against another's, and another tenant's document never matches.
 */
export function documentNumberHash(profileId: string, document: { issuingCountry: string; number: string }): string {
  return createHash('sha256')
    .update(`identity-document-number\0${profileId}\0${document.issuingCountry}\0${document.number}\0`)
    .digest('hex');
}

/** The start of the window in which an earlier verification with the same number counts. */
export const reuseWindowStart = (now: Date): Date => new Date(now.getTime() - NUMBER_REUSE_DAYS * 24 * 60 * 60 * 1000);
