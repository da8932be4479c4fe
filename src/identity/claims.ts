/**
 * The claims an attestation can state, and what each one needs: the words the schemas, the
 * attestation service and the public catalogue share, in a module of their own so that the
 * schemas do not import the service that answers with them.
 */
const CLAIMS = {
  identity_verified: { description: 'The verification was approved.', needs_mrz: false },
  age_over_18: {
    description: 'The holder is at least 18 years old today (birth date in the zone read from the document).',
    needs_mrz: true,
  },
  age_over_21: {
    description: 'The holder is at least 21 years old today (birth date in the zone read from the document).',
    needs_mrz: true,
  },
  document_unexpired: {
    description: 'The document has not expired today (expiry date in the zone read from the document).',
    needs_mrz: true,
  },
  nationality: { description: 'The holder’s nationality, ISO 3166-1 alpha-3 (the zone read from the document).', needs_mrz: true },
} as const;
export type ClaimName = keyof typeof CLAIMS;
export const CLAIM_NAMES = Object.keys(CLAIMS) as [ClaimName, ...ClaimName[]];

export function claimCatalogue() {
  return { claims: CLAIM_NAMES.map((name) => ({ name, ...CLAIMS[name] })) };
}
