import { LRUCache } from 'lru-cache';

/** A page of events as sent (the finished JSON body), and the change count it was built at. */
export interface CachedPage {
  body: string;
  /**
   * The sum of the listed events' change counters (ticketing_event_counts.changes) in the
   * snapshot the page was read in, as PostgreSQL prints it.
   */
  changes: string;
}

interface PageSource {
  /** The listed events' change count now (one small read). */
  changes(): Promise<string>;
  /** The page and its change count, read in one snapshot. */
  read(): Promise<CachedPage>;
}

export interface EventPageCache {
  /** The page's body: the kept one while the change count has not moved, else read afresh (and kept). */
  page(key: string, source: PageSource): Promise<string>;
}

/** The cache key of one page: the profile, the status filter and the window. */
export const pageKey = (profileId: string, status: string | undefined, page: number, limit: number) =>
  `${profileId}|${status ?? ''}|${page}|${limit}`;

/**
 * The event pages this process answered most recently, up to `maxChars` characters of bodies
 * (a character is one or two bytes in V8's strings), least recently used first out. A kept page
 * is sent only while its list's change count is still the one it was built at, read from the
 * database at every request: every change to an event adds to that count in the transaction
 * that makes it (migration 0010), so a change committed by another instance or past the
 * application is seen by the next request, as without the cache. What it saves is the page's
 * rows: a 100-event page is 48 KB that PostgreSQL reads and sends and the server parses.
 * `maxChars` 0 keeps nothing.
 */
export function createEventPageCache(maxChars: number): EventPageCache {
  const pages =
    maxChars > 0
      ? new LRUCache<string, CachedPage>({ maxSize: maxChars, sizeCalculation: (page) => Math.max(1, page.body.length) })
      : undefined;
  return {
    async page(key, source) {
      const kept = pages?.get(key);
      if (kept && kept.changes === (await source.changes())) return kept.body;
      const fresh = await source.read();
      // Two requests that missed together may set it in either order: an older page then only
      // fails the next check, it is never sent for a newer count. A page larger than the whole
      // budget is not kept (lru-cache refuses it).
      pages?.set(key, fresh);
      return fresh.body;
    },
  };
}
