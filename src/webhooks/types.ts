import type { DbOrTx } from '../db/client.js';

/** What a signer gets: the event id, the send time and the exact bytes that will be sent. */
export interface SignInput {
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
  registerSigner(name: string, signer: WebhookSigner): void;
  registerPolicy(name: string, policy: DeliveryPolicy): void;
}
