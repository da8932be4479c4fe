import { and, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Db, type DbOrTx } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/idempotency.js';

/** One key of one caller on one operation. */
export interface KeyScope {
  caller: string;
  method: string;
  path: string;
  key: string;
}

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

type Reservation = { outcome: 'reserved' } | { outcome: 'replay'; answer: StoredAnswer } | { outcome: 'reused' } | { outcome: 'in-use' };

const iso = (d: Date) => d.toISOString();

const scopeIs = (s: KeyScope) =>
  and(
    eq(idempotencyKeys.caller, s.caller),
    eq(idempotencyKeys.method, s.method),
    eq(idempotencyKeys.path, s.path),
    eq(idempotencyKeys.key, s.key),
  );

/**
 * Takes the key for a request, or says what the key already holds. One statement decides: the
 * insert wins when the key is new, expired or left by a run whose lease ran out; otherwise the
 * primary key makes it lose, on every instance alike, and the row that won is read.
 */
export async function reserveKey(
  db: Db,
  scope: KeyScope,
  request: { fingerprint: string; owner: string; now: Date; leaseUntil: Date; expiresAt: Date },
): Promise<Reservation> {
  const { fingerprint, owner, now, leaseUntil, expiresAt } = request;
  // A row deleted between the lost insert and the read (its run failed) is simply tried again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const won = await db.execute(sql`
      insert into idempotency_keys (caller, method, path, key, fingerprint, owner, lease_until, created_at, expires_at)
      values (${scope.caller}, ${scope.method}, ${scope.path}, ${scope.key}, ${fingerprint}, ${owner},
        ${iso(leaseUntil)}, ${iso(now)}, ${iso(expiresAt)})
      on conflict (caller, method, path, key) do update set
        fingerprint = excluded.fingerprint, owner = excluded.owner, lease_until = excluded.lease_until,
        status = null, content_type = null, body = null, created_at = excluded.created_at, expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= ${iso(now)}
        or (idempotency_keys.status is null and idempotency_keys.lease_until <= ${iso(now)})
      returning owner`);
    if (rowsOf<{ owner: string }>(won)[0]?.owner === owner) return { outcome: 'reserved' };
    const [held] = await db.select().from(idempotencyKeys).where(scopeIs(scope));
    if (!held) continue;
    if (held.fingerprint !== fingerprint) return { outcome: 'reused' };
    if (held.status === null) return { outcome: 'in-use' };
    return { outcome: 'replay', answer: { status: held.status, contentType: held.contentType, body: held.body ?? Buffer.alloc(0) } };
  }
  return { outcome: 'in-use' };
}

/** Keeps the answer of the run that holds the key; false when the run lost it (its lease ran out and another took over). */
export async function keepAnswer(
  db: Db,
  scope: KeyScope,
  owner: string,
  answer: StoredAnswer,
  subject: string | null = null,
): Promise<boolean> {
  const kept = await db
    .update(idempotencyKeys)
    .set({ status: answer.status, contentType: answer.contentType, body: answer.body, subject })
    .where(and(scopeIs(scope), eq(idempotencyKeys.owner, owner), isNull(idempotencyKeys.status)))
    .returning({ owner: idempotencyKeys.owner });
  return kept.length > 0;
}

/** Frees the key after an answer it does not keep, so the client's retry runs the request again. */
export async function releaseKey(db: Db, scope: KeyScope, owner: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(scopeIs(scope), eq(idempotencyKeys.owner, owner), isNull(idempotencyKeys.status)));
}

/** Deletes every kept answer concerning `subject` (a record being erased): a retry then runs afresh. */
export async function forgetAnswersOf(db: DbOrTx, subject: string): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.subject, subject));
}

/** Deletes up to `limit` expired keys; returns how many went. */
export async function purgeExpiredKeys(db: Db, now: Date, limit: number): Promise<number> {
  const gone = await db.execute(sql`
    delete from idempotency_keys where (caller, method, path, key) in (
      select caller, method, path, key from idempotency_keys where expires_at <= ${iso(now)} limit ${limit})
    returning 1`);
  return rowsOf(gone).length;
}
