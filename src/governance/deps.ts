import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { Meter } from '../metrics/meter.js';
import type { SigningKey } from '../signing-keys/service.js';

/** What the governance service is built from. */
export interface GovernanceDeps {
  db: Db;
  clock: Clock;
  /** The records' signing key (GOVERNANCE_SIGNING_KEY or the stored one). */
  signingKey: SigningKey;
  meter?: Meter;
  /** Told after each committed batch of a profile's records (src/governance/chain.ts). */
  onSealed?: (profileId: string) => Promise<void>;
}
