import { toIso, toIsoOrNull } from '../lib/time.js';
import type { AttemptRow, EndpointRow, LoggedDelivery } from './repo.js';
import type { WebhookDeliveryView, WebhookEndpointView } from './types.js';

/** An endpoint as the operator sees it: never its secrets. */
export function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    profileId: row.profileId,
    url: row.url,
    events: row.events,
    enabled: row.disabledAt === null,
    disabledAt: toIsoOrNull(row.disabledAt),
    disabledReason: row.disabledReason,
    createdAt: toIso(row.createdAt),
  };
}

/** Deliveries with their attempts (`attempts` may hold other deliveries' too, in attempt order). */
export function deliveryViews(rows: LoggedDelivery[], attempts: AttemptRow[]): WebhookDeliveryView[] {
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    type: r.eventType,
    endpointId: r.endpointId,
    url: r.url,
    state: r.state,
    attemptCount: r.attempts,
    maxAttempts: r.maxAttempts,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    nextAttemptAt: r.state === 'pending' ? toIsoOrNull(r.nextAttemptAt) : null,
    createdAt: toIso(r.createdAt),
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({ attempt: a.attempt, at: toIso(a.startedAt), statusCode: a.statusCode, durationMs: a.durationMs, error: a.error })),
  }));
}
