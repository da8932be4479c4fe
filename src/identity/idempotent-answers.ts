import type { IdempotentApi, StoredAnswer } from '../idempotency/hooks.js';
import { captureUrl } from './capture/url.js';
import type { VerificationService } from './service.js';

/** The fields of an answer that hand the device its way in; never stored (docs/idempotency.md, "Idempotency-Key"). */
const HANDOFF_FIELDS = ['handoff_token', 'handoff_expires_at', 'capture_url'] as const;

type Answer = Record<string, unknown>;

function parseAnswer(body: Buffer): Answer | null {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Answer) : null;
  } catch {
    return null;
  }
}

const verificationIdOf = (answer: Answer): string | null =>
  typeof answer.id === 'string' ? answer.id : typeof answer.verification_id === 'string' ? answer.verification_id : null;

/**
 * Idempotency-Key for the backend's verification operations without a live handoff token at
 * rest: a kept answer holds the handoff fields as null (so they keep their place), and its
 * replay issues a fresh token, which revokes every earlier one, as POST /handoff does. Each kept
 * answer names its verification, so erasure deletes it with the rest of the personal data.
 */
export function withoutHandoffAtRest(api: IdempotentApi, verifications: VerificationService, publicUrl: string): IdempotentApi {
  return {
    ...api,
    keptPart(_req, body) {
      const answer = parseAnswer(body);
      if (!answer) return { body, subject: null };
      const subject = verificationIdOf(answer);
      if (!('handoff_token' in answer)) return { body, subject };
      for (const field of HANDOFF_FIELDS) if (field in answer) answer[field] = null;
      return { body: Buffer.from(JSON.stringify(answer)), subject };
    },
    async completeReplay(req, stored): Promise<StoredAnswer> {
      const answer = parseAnswer(stored.body);
      const id = answer && 'handoff_token' in answer ? verificationIdOf(answer) : null;
      if (!answer || !id) return stored;
      const fresh = await verifications.reissueHandoff(req.identityPrincipal!, id);
      answer.handoff_token = fresh.handoff_token;
      answer.handoff_expires_at = fresh.handoff_expires_at;
      answer.capture_url = captureUrl(publicUrl, fresh.handoff_token);
      return { ...stored, body: Buffer.from(JSON.stringify(answer)) };
    },
  };
}
