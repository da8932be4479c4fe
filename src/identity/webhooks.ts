import { sign } from 'node:crypto';
import type { DbOrTx } from '../db/client.js';
import type { SigningKey } from '../signing-keys/service.js';
import type { WebhookPlatform } from '../webhooks/types.js';
import type { VerificationRow } from './repo.js';

export const IDENTITY_SIGNER = 'identity-ed25519';
export const IDENTITY_POLICY = 'identity';
export type DecisionStatus = 'approved' | 'declined' | 'manual_review';

/**
 * Standard Webhooks with Ed25519: the signature covers "<webhook-id>.<webhook-timestamp>.<body>"
 * and is sent as `v1a,<base64>`; receivers verify it with the identity-webhook key of the JWKS.
 */
export function registerIdentityWebhooks(webhooks: WebhookPlatform, key: SigningKey, timeoutMs: number): void {
  webhooks.registerSigner(IDENTITY_SIGNER, {
    sign({ eventId, timestampSec, body }) {
      const signature = sign(null, Buffer.from(`${eventId}.${timestampSec}.${body}`), key.privateKey).toString('base64');
      return {
        'webhook-id': eventId,
        'webhook-timestamp': String(timestampSec),
        'webhook-signature': `v1a,${signature}`,
      };
    },
  });
  // Decision webhooks keep their own schedule (docs/webhooks.md, "Receiving webhooks"): 3 attempts in all, at once,
  // after 1 minute and after 10 more; each waits WEBHOOK_TIMEOUT_MS for the receiver's answer.
  webhooks.registerPolicy(IDENTITY_POLICY, { delaysMs: [60_000, 600_000], timeoutMs });
}

/**
 * Queues the decision webhook in the decision's own transaction; it carries no personal data
 * beyond the backend's own reference. One platform key signs every profile's decisions, so the
 * body names the profile: a receiver trusts a decision only for its own `profile_id` (docs/webhooks.md,
 * "Receiving webhooks").
 */
export async function sendDecisionWebhook(
  tx: DbOrTx,
  webhooks: WebhookPlatform,
  v: VerificationRow,
  status: DecisionStatus,
): Promise<void> {
  if (!v.webhookUrl) return;
  await webhooks.sendDirect(tx, {
    profileId: v.profileId,
    url: v.webhookUrl,
    type: `verification.${status}`,
    data: { verification_id: v.id, status, reference: v.reference, profile_id: v.profileId },
    signer: IDENTITY_SIGNER,
    policy: IDENTITY_POLICY,
  });
}
