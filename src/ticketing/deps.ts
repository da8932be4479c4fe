import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { WebhookPlatform } from '../webhooks/types.js';
import type { EventPageCache } from './page-cache.js';

/** What every ticketing service (events, sales, the door) is built from. */
export interface TicketingDeps {
  db: Db;
  clock: Clock;
  webhooks: WebhookPlatform;
  /** Event pages kept by this process (EVENT_PAGE_CACHE_MB); none kept when absent. */
  pages?: EventPageCache;
}
