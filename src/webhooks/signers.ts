import { computeServiceSignature } from './verify.js';
import type { WebhookSigner } from './types.js';

/** The signer of registered endpoints: `Service-Signature: t=…,v1=…` (docs/webhooks.md, Receiving webhooks; verified by verify.ts). */
export const SERVICE_HMAC_SIGNER = 'service-hmac';

/** One `v1=` per live secret (newest first), so receivers keep verifying through a rotation. */
export const serviceHmacSigner: WebhookSigner = {
  sign({ timestampSec, body, secrets }) {
    if (secrets.length === 0) throw new Error('the service-hmac signer needs at least one secret');
    const v1 = secrets.map((s) => `v1=${computeServiceSignature(s, timestampSec, body)}`);
    return { 'Service-Signature': [`t=${timestampSec}`, ...v1].join(',') };
  },
};
