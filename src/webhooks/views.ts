import { toIso, toIsoOrNull } from '../lib/time.js';
import type { EndpointRow, LoggedAttempt, LoggedDelivery } from './repo.js';
import type { ResponseExcerpt } from './response-excerpt.js';
import type { WebhookDeliveryDetailView, WebhookDeliveryView, WebhookEndpointView } from './types.js';

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
export function deliveryViews(rows: LoggedDelivery[], attempts: LoggedAttempt[]): WebhookDeliveryView[] {
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

/**
 * The operator's detail of one delivery: the body it sends and, per attempt, the start of the
 * receiver's answer body (the partner's own receiver: theirs to see; nothing of the request's
 * signature or secrets is kept).
 */
export function deliveryDetailView(
  view: WebhookDeliveryView,
  requestBody: string,
  answers: Map<number, ResponseExcerpt | null>,
): WebhookDeliveryDetailView {
  return {
    ...view,
    requestBody,
    attempts: view.attempts.map((a) => {
      const answer = answers.get(a.attempt) ?? null;
      return { ...a, responseBody: answer?.body ?? null, responseBodyTruncated: answer?.truncated ?? false };
    }),
  };
}
