import type { KeyPrincipal } from '../auth/api-keys.js';
import type { DataKeys } from '../at-rest/data-keys.js';
import type { BlobStore } from '../blobs/store.js';
import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { WebhookPlatform } from '../webhooks/types.js';

/**
 * What every identity service is built from, and how a key is named in the audit trail: kept
 * apart from the services so that the attestation, review and pipeline services each import
 * them without importing one another.
 */
export interface IdentityDeps {
  db: Db;
  clock: Clock;
  /** The master keys that open the seeds of the signing keys (docs/operations.md, "Encryption at rest"). */
  dataKeys: DataKeys;
  blobs: BlobStore;
  webhooks: WebhookPlatform;
}

export const keyActor = (p: KeyPrincipal) => `${p.role}:${p.keyId}`;
