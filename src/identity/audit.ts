import type { DbOrTx } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { canonicalJson, GENESIS_HASH } from '../lib/canonical-json.js';
import { sha256Hex } from '../lib/crypto.js';
import * as repo from './repo.js';

interface AuditEntry {
  verificationId: string;
  seq: number;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** SHA-256 over the previous hash and the JCS form of the entry: changing or dropping any entry breaks every later hash. */
function auditHash(prevHash: string, e: AuditEntry): string {
  const content = canonicalJson({
    verification_id: e.verificationId,
    seq: e.seq,
    type: e.type,
    actor: e.actor,
    data: e.data,
    created_at: e.createdAt.toISOString(),
  });
  return sha256Hex(`${prevHash}\n${content}`);
}

/**
 * Appends one entry to a verification's chain. Callers hold the verification's row lock
 * (see lockVerification), so entries of one verification never race for a sequence number.
 * Entries never carry personal data: erasure leaves the chain whole.
 */
export async function appendAudit(
  tx: DbOrTx,
  clock: Clock,
  entry: { verificationId: string; type: string; actor: string; data?: Record<string, unknown> },
): Promise<void> {
  const last = await repo.lastAuditEntry(tx, entry.verificationId);
  const full: AuditEntry = {
    verificationId: entry.verificationId,
    seq: (last?.seq ?? 0) + 1,
    type: entry.type,
    actor: entry.actor,
    data: entry.data ?? {},
    createdAt: clock.now(),
  };
  const prevHash = last?.hash ?? GENESIS_HASH;
  await repo.insertAuditEntry(tx, { ...full, prevHash, hash: auditHash(prevHash, full) });
}

/** Recomputes a chain; true when every entry links to the one before. */
export function verifyAuditChain(entries: (AuditEntry & { prevHash: string; hash: string })[]): boolean {
  let prev = GENESIS_HASH;
  return [...entries]
    .sort((a, b) => a.seq - b.seq)
    .every((e, i) => {
      const ok = e.seq === i + 1 && e.prevHash === prev && e.hash === auditHash(prev, e);
      prev = e.hash;
      return ok;
    });
}
