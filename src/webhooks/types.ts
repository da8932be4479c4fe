import type { DbOrTx } from '../db/client.js';
import type { DELIVERY_STATES } from '../db/vocabulary.js';

/** What a signer gets: the event id, the send time and the exact bytes that will be sent. */
interface SignInput {
  eventId: string;
  timestampSec: number;
  body: string;
  /** The live secrets of the target, newest first (HMAC signers); empty for key-pair signers. */
  secrets: string[];
}

/** Turns a body into signature headers. Registered by name so durable jobs can name it. */
export interface WebhookSigner {
  sign(input: SignInput): Record<string, string>;
}

/** How often and how patiently one delivery is tried. */
export interface DeliveryPolicy {
  /** Delays before attempt 2, 3, …; attempts = delaysMs.length + 1. */
  delaysMs: number[];
  /** WEBHOOK_TIMEOUT_MS caps it; WEBHOOK_RETRY_DELAYS_MS replaces delaysMs (up to this many delays). */
  timeoutMs: number;
}

export interface WebhookEventInput {
  profileId: string;
  type: string;
  data: unknown;
}

/** The process's one webhook platform; ticketing and identity only ever talk to this. */
export interface WebhookPlatform {
  /**
   * Records an event for the profile's registered endpoints, in the caller's transaction
   * (transactional outbox): it is delivered if and only if the change commits.
   */
  publish(tx: DbOrTx, event: WebhookEventInput): Promise<{ id: string }>;
  /** Sends one event to one URL that is not a registered endpoint (identity's webhook_url), with a named signer and policy. */
  sendDirect(tx: DbOrTx, event: WebhookEventInput & { url: string; signer: string; policy: string }): Promise<{ id: string }>;
  /**
   * Checks a URL as registration does (https, no credentials, resolvable, only public addresses
   * unless WEBHOOK_ALLOW_PRIVATE_NETWORKS): throws WebhookTargetError saying which rule failed.
   */
  checkUrl(url: string): Promise<void>;
  registerSigner(name: string, signer: WebhookSigner): void;
  registerPolicy(name: string, policy: DeliveryPolicy): void;
  /** Endpoints and the delivery log, for the operator API. */
  service: WebhookService;
}

/** The five event types ticketing publishes; endpoints may filter on them. */
export const TICKETING_EVENT_TYPES = ['order.paid', 'order.refunded', 'ticket.checked_in', 'event.published', 'event.canceled'] as const;

export interface WebhookEndpointView {
  id: string;
  profileId: string;
  url: string;
  /** Empty: every event type. */
  events: string[];
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
}

interface WebhookAttemptView {
  attempt: number;
  at: string;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
}

/** An attempt in the delivery detail: with the start of the receiver's answer body. */
export interface WebhookAttemptDetailView extends WebhookAttemptView {
  /** The first bytes of the answer's body as text (src/webhooks/response-excerpt.ts); null without an answer. */
  responseBody: string | null;
  /** The body went on past the excerpt, or was cut off. */
  responseBodyTruncated: boolean;
}

/** One delivery as the operator's detail shows it: the body every attempt sends, and what each attempt got back. */
export interface WebhookDeliveryDetailView extends Omit<WebhookDeliveryView, 'attempts'> {
  requestBody: string;
  attempts: WebhookAttemptDetailView[];
}

export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  /** The event's type. */
  type: string;
  endpointId: string | null;
  url: string;
  state: DeliveryState;
  attemptCount: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: WebhookAttemptView[];
}

/**
 * The delivery log's `total` counts at most this many (`totalCapped` says there are more): a
 * page then costs the same in a log of ten thousand or of millions.
 */
export const DELIVERY_COUNT_CAP = 10_000;

/** What the operator API does with endpoints and the delivery log (src/webhooks/service.ts). */
export interface WebhookService {
  createEndpoint(profileId: string, input: { url: string; events?: string[] }): Promise<WebhookEndpointView & { secret: string }>;
  listEndpoints(profileId: string): Promise<WebhookEndpointView[]>;
  setEndpointEnabled(endpointId: string, enabled: boolean): Promise<WebhookEndpointView>;
  /** A new secret; the old one keeps signing (a second `v1=`) for 24 hours. */
  rotateSecret(endpointId: string): Promise<{ secret: string }>;
  sendTestEvent(endpointId: string): Promise<{ eventId: string; deliveryId: string }>;
  listDeliveries(filter: {
    profileId?: string;
    endpointId?: string;
    eventId?: string;
    state?: DeliveryState;
    page: number;
    limit: number;
  }): Promise<{ items: WebhookDeliveryView[]; total: number; totalCapped: boolean }>;
  getDelivery(deliveryId: string): Promise<WebhookDeliveryView>;
  /**
   * The delivery with the body every attempt sends (the event's payload, byte for byte) and the
   * start of each answer's body, for the operator's detail.
   */
  deliveryDetail(deliveryId: string): Promise<WebhookDeliveryDetailView>;
  /** Another attempt now: brings a pending one forward, or grants one more to a finished delivery. */
  redeliver(deliveryId: string): Promise<WebhookDeliveryView>;
}
