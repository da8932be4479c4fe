import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client.js';
import { apiKeys } from '../db/schema/core.js';
import type { Clock } from '../lib/clock.js';

/** A key's `lastUsedAt` may lag this much: at most one write per key and interval. */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Records when keys are used without a write on every request: the first use of a key in each
 * interval starts one UPDATE that the request does not wait for; later uses in the interval
 * cost a map lookup.
 */
export class KeyUseRecorder {
  private readonly writtenAt = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {}

  noteUse(keyId: string): void {
    const now = this.clock.now();
    const last = this.writtenAt.get(keyId);
    if (last !== undefined && now.getTime() - last < KEY_USE_WRITE_INTERVAL_MS) return;
    if (this.writtenAt.size >= 100_000) this.writtenAt.clear();
    this.writtenAt.set(keyId, now.getTime());
    const write = this.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      // Another instance may have written a later time already.
      .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now))))
      .then(
        () => undefined,
        (err: unknown) => this.log.warn({ err, keyId }, 'could not record the use of an API key'),
      )
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Waits for the writes already started (graceful close, and tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }
}

const recorders = new WeakMap<object, KeyUseRecorder>();

export function keyUseRecorderOf(db: DbOrTx): KeyUseRecorder | undefined {
  return recorders.get(db);
}

/** Gives `database.db` a recorder of key use; close waits for its pending writes. */
export function startKeyUseRecorder(database: Database, clock: Clock, log: Log) {
  // A lost last-used time costs nothing: it is bookkeeping, written on the pool that does not wait for the WAL.
  const recorder = new KeyUseRecorder(database.bookkeeping, clock, log);
  recorders.set(database.db, recorder);
  return {
    recorder,
    close: async () => {
      await recorder.settle();
      recorders.delete(database.db);
    },
  };
}
