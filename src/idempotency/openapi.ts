import { IDEMPOTENT_OPERATION } from './hooks.js';
import { isKeptAnswer } from './key.js';

type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };
type Operation = {
  parameters?: Record<string, unknown>[];
  responses?: Record<string, Response>;
  [IDEMPOTENT_OPERATION]?: unknown;
};

const keyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a request repeated with the same key (1–255 printable ASCII characters, unique per request, e.g. a UUID) and the same body gets the first answer again, status and body byte for byte, with `Idempotent-Replayed: true`, and is not run again. ' +
    'Kept 24 hours per API key, method and path. The same key with another body answers 422; while the first request still runs, 409 (retry shortly). ' +
    'Successes and client errors are kept, except 401, 403 and 429; a 5xx is not, so a retry runs again.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

const replayedHeader = {
  description: '`true` when this is the answer kept for the request’s Idempotency-Key, not a new run.',
  schema: { type: 'string', enum: ['true'] },
};

const extraAnswers: Record<string, string> = {
  '409': 'The first request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE where the API has codes); retry shortly.',
  '422': 'This Idempotency-Key was used with another request body (IDEMPOTENCY_KEY_REUSED where the API has codes).',
};

/** The operation's own meaning of a status it already answers; the generator's placeholder says nothing. */
function ownAnswer(description: string | undefined): string {
  return !description || description === 'Default Response' ? 'As the operation describes.' : description;
}

/**
 * Completes every operation marked by useIdempotency: the request header, the replay header on
 * each answer a key keeps, and the 409 and 422 of a key in use or reused, in the operation's
 * own error body (the one its 401 uses; every such operation is authenticated).
 */
export function documentIdempotency(paths: Record<string, object>): void {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item) as (Operation | undefined)[]) {
      if (!op || typeof op !== 'object' || !op[IDEMPOTENT_OPERATION]) continue;
      delete op[IDEMPOTENT_OPERATION];
      op.parameters = [...(op.parameters ?? []), keyParameter];
      const responses = (op.responses ??= {});
      const errorContent = responses['401']?.content;
      for (const [status, description] of Object.entries(extraAnswers)) {
        const existing = responses[status];
        if (existing) existing.description = `${ownAnswer(existing.description)} Or: ${description}`;
        else responses[status] = { description, ...(errorContent ? { content: errorContent } : {}) };
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!/^\d{3}$/.test(status) || !isKeptAnswer(Number(status))) continue;
        response.headers = { ...response.headers, 'Idempotent-Replayed': replayedHeader };
      }
    }
  }
}
