import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, DbOrTx } from '../db/client.js';

/** The channel every instance listens on; a revocation or plan change is announced there. */
export const KEYS_CHANNEL = 'api_keys_changed';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
const RECONNECT_MAX_MS = 10_000;

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Verified keys of one database, kept for a few seconds so authentication costs a map lookup.
 * Misses are never kept: a key issued a moment ago works at once. On PostgreSQL the cache is
 * used only while this process listens for changes, so a revocation elsewhere is never missed.
 */
export class PrincipalCache<T = unknown> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  /** Bumped by every clear: a lookup that started before a change must not store what it read. */
  private generation = 0;
  enabled: boolean;

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  get(keyHash: string): T | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.value;
  }

  /** The token to pass to `set` for a lookup starting now. */
  begin(): number {
    return this.generation;
  }

  set(keyHash: string, value: T, startedAt: number): void {
    if (!this.enabled || startedAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { value, expiresAt: performance.now() + TTL_MS });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

const cachesByDb = new WeakMap<object, PrincipalCache>();
const localCaches = new Set<PrincipalCache>();

/** The cache of this database handle; none for a transaction or a handle without a cache. */
export function keyCacheOf(db: DbOrTx): PrincipalCache | undefined {
  return cachesByDb.get(db);
}

/**
 * Announces that keys or plans changed: every instance drops its cached keys. Inside a
 * transaction the notification is delivered at commit.
 */
export async function notifyApiKeysChanged(db: DbOrTx): Promise<void> {
  for (const cache of localCaches) cache.clear();
  await db.execute(sql`select pg_notify(${KEYS_CHANNEL}, '')`);
}

export interface KeyCacheHandle {
  cache: PrincipalCache;
  close(): Promise<void>;
}

/** Gives `database.db` a key cache and keeps it honest by listening on KEYS_CHANNEL. */
export async function startKeyCache(database: Database, log: Log): Promise<KeyCacheHandle> {
  const cache = new PrincipalCache(false);
  cachesByDb.set(database.db, cache);
  localCaches.add(cache);
  const forget = () => {
    cachesByDb.delete(database.db);
    localCaches.delete(cache);
    cache.clear();
  };

  if (database.pglite) {
    const unlisten = await database.pglite.listen(KEYS_CHANNEL, () => cache.clear());
    cache.enabled = true;
    return {
      cache,
      close: async () => {
        forget();
        await unlisten().catch(() => {});
      },
    };
  }

  // PostgreSQL: one dedicated connection per process, outside the pool, holds the LISTEN.
  const options = database.pool!.options as pg.ClientConfig;
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 500;
  let timer: NodeJS.Timeout | undefined;

  const lost = (err?: unknown) => {
    cache.enabled = false;
    cache.clear();
    const dead = client;
    client = undefined;
    dead?.removeAllListeners();
    dead?.on('error', () => {});
    void dead?.end().catch(() => {});
    if (stopped) return;
    if (err)
      log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'key cache listener lost its connection; cache off until it is back',
      );
    timer = setTimeout(() => void connect(), retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client(options);
    client = c;
    c.on('error', (err) => lost(err));
    c.on('end', () => {
      if (client === c) lost(new Error('connection ended'));
    });
    c.on('notification', () => cache.clear());
    try {
      await c.connect();
      await c.query(`LISTEN ${KEYS_CHANNEL}`);
      if (stopped || client !== c) return;
      cache.clear();
      cache.enabled = true;
      retryMs = 500;
    } catch (err) {
      if (client === c) lost(err);
    }
  };

  await connect();
  return {
    cache,
    close: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      forget();
      const c = client;
      client = undefined;
      c?.removeAllListeners();
      c?.on('error', () => {});
      await c?.end().catch(() => {});
    },
  };
}
