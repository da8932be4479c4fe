import type { Db } from '../db/client.js';
import { findLiveKey } from '../signing-keys/repo.js';
import { noteVerifierKey } from './checkpoint.js';
import { logProfiles } from './log-repo.js';

/** The purposes of the keys that sign checkpoints (src/governance/plugin.ts settles them at start). */
export const CHECKPOINT_KEY_PURPOSE = 'governance-checkpoint';
export const CHECKPOINT_ML_DSA_PURPOSE = 'governance-checkpoint-ml-dsa';

export interface LogKeys {
  origin: string;
  verifier_key: string;
  ml_dsa_public_key: string;
  created_at: string;
}

/** The origin of a profile's log: `<host of PUBLIC_URL>/governance/<profile id>` (docs/governance.md, "Transparency log"). */
export const logOriginOf = (publicUrl: string, profileId: string) => `${new URL(publicUrl).host}/governance/${profileId}`;

/**
 * The keys of every profile's transparency log, published apart from the checkpoints they sign
 * (docs/governance.md, "Transparency log"): an auditor pins them from here, or from the operator, so a
 * checkpoint answer cannot vouch for itself with a key of its own choosing. `created_at` is when
 * the log's keys first signed for its origin: the later of the profile's creation and the keys'.
 * Only the keys' public halves leave this function; no entries before the governance API has settled its keys.
 */
export async function listLogKeys(db: Db, publicUrl: string): Promise<{ keys: LogKeys[] }> {
  const [ed25519, mlDsa] = await Promise.all([findLiveKey(db, CHECKPOINT_KEY_PURPOSE), findLiveKey(db, CHECKPOINT_ML_DSA_PURPOSE)]);
  if (!ed25519 || !mlDsa) return { keys: [] };
  const publicKey = Buffer.from(ed25519.publicKey, 'base64');
  const keysSince = Math.max(ed25519.createdAt.getTime(), mlDsa.createdAt.getTime());
  const keys = (await logProfiles(db)).map(({ profileId, createdAt }) => {
    const origin = logOriginOf(publicUrl, profileId);
    return {
      origin,
      verifier_key: noteVerifierKey(origin, publicKey),
      ml_dsa_public_key: mlDsa.publicKey,
      created_at: new Date(Math.max(createdAt.getTime(), keysSince)).toISOString(),
    };
  });
  return { keys };
}
