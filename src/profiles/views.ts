import { toIso } from '../lib/time.js';
import type { ApiKeyRow } from '../auth/repo.js';
import type { ProfileRow, VenueRow } from './repo.js';

/** Rows to the operator API's bodies (schemas in src/admin/schemas.ts). */

export function profileView(row: ProfileRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    reviewPolicy: row.reviewPolicy,
    identityRetentionDays: row.identityRetentionDays,
    privacyPolicyUrl: row.privacyPolicyUrl,
  };
}

export function venueView(row: VenueRow) {
  return { ...row, createdAt: toIso(row.createdAt) };
}

/** A key as listed: never its secret (only its hash is stored); identity keys carry a role, the others scopes. */
export function apiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    service: row.service,
    profileId: row.profileId,
    ...(row.service === 'identity' ? { role: row.role ?? undefined } : { scopes: row.scopes }),
    name: row.name,
    holder: row.holder,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: toIso(row.createdAt),
    revokedAt: row.revokedAt ? toIso(row.revokedAt) : null,
    lastUsedAt: row.lastUsedAt ? toIso(row.lastUsedAt) : null,
  };
}
