import { z } from 'zod';
import { BYPASS_KINDS } from './boundary.js';
import { AUTHORITY_STATUSES, TIERS } from './types.js';

export const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const decisionRequest = z.strictObject({
  agent_id: z.string().min(1).max(200),
  action: z.string().min(1).max(200),
  authority_status: z.enum(AUTHORITY_STATUSES),
  human_present: z.boolean(),
  consequence_tier: z.enum(TIERS),
  timestamp: z.iso.datetime({ offset: true }),
  behavior: z
    .strictObject({ fingerprint: z.string().min(1).max(200), drift: z.number().min(0) })
    .nullable()
    .optional(),
});

const gateResult = z.object({
  gate: z.number().int(),
  name: z.string(),
  passed: z.boolean(),
  reason: z.string(),
});

/** A sealed record as served; loose so a response never drops a field the signature covers. */
export const sealedRecord = z.looseObject({
  record_id: z.uuid(),
  execution_id: z.uuid(),
  agent_id: z.string(),
  action: z.string(),
  inputs: z.looseObject({}),
  gates: z.array(gateResult.loose()),
  disposition: z.enum(['ALLOW', 'DENY', 'ESCALATE']),
  policy_version: z.string(),
  issued_at: z.string(),
  expires_at: z.string(),
  nonce: z.string(),
  seq: z.number().int(),
  prev_hash: z.string(),
  key_id: z.string(),
  signature: z.string(),
});

/** A record presented by a caller: any JSON object; the checks decide what it is worth. */
export const presentedRecord = z.strictObject({ record: z.record(z.string(), z.unknown()) });

export const replayResponse = z.object({
  signature_valid: z.boolean(),
  original_disposition: z.string().nullable(),
  replayed_disposition: z.enum(['ALLOW', 'DENY', 'ESCALATE']),
  match: z.boolean(),
  policy_version: z.string(),
  gates: z.array(gateResult),
});

export const admitResponse = z.object({
  admitted: z.literal(true),
  execution_id: z.uuid(),
  record_id: z.uuid(),
  admitted_at: z.string(),
});

export const scenarioRequest = z.strictObject({ condition: z.enum(['A', 'B']) });
export const scenarioResponse = sealedRecord.extend({
  condition: z.enum(['A', 'B']),
  changed_condition: z.object({ field: z.string(), from: z.string(), to: z.string() }).nullable(),
  record: sealedRecord,
});

export const bypassRequest = z.strictObject({
  kind: z.enum(BYPASS_KINDS),
  record: z.record(z.string(), z.unknown()).optional(),
});
export const bypassResponse = z.object({
  kind: z.enum(BYPASS_KINDS),
  rejected: z.boolean(),
  code: z.string().nullable(),
  message: z.string(),
  execution_id: z.uuid().nullable(),
});

export const verifyResponse = z.object({
  valid: z.boolean(),
  key_id: z.string().nullable(),
  reason: z.string().optional(),
  freshness: z.object({ fresh: z.boolean(), expires_at: z.string().nullable(), checked_at: z.string() }),
  chain: z.object({ seq: z.number().int().nullable(), recorded: z.boolean(), prev_hash_matches: z.boolean().nullable() }).nullable(),
});

export const keysResponse = z.object({
  keys: z.array(
    z.object({
      kid: z.string().describe('The first 16 hex characters of SHA-256 over the raw 32-byte public key'),
      key_id: z.string(),
      algorithm: z.literal('Ed25519'),
      public_key: z.string(),
      status: z.enum(['current', 'retired']),
      created_at: z.string(),
      retired_at: z.string().nullable(),
    }),
  ),
});

export const recordsQuery = z.object({
  after_seq: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0)
    .describe('Return records with a seq above this one (0: from the start of the chain).'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('At most this many records (1–1000).'),
});
export const recordsResponse = z.object({
  records: z.array(sealedRecord),
  next_after_seq: z.number().int().nullable().describe('Pass as after_seq for the next page; null at the end of the chain.'),
});

export const carrierParams = z.object({ execution_id: z.string() });
export const carrierResponse = z.object({
  execution_id: z.uuid(),
  record: sealedRecord,
  deliveries: z.array(z.object({ admitted_at: z.string(), result: z.string() })),
});

const entry = z.object({ answer: z.string(), detail: z.string() });
export const statementResponse = z.object({
  schema: z.string(),
  version: z.string(),
  published: z.string(),
  description: z.string(),
  what_proves: z.record(z.string(), entry),
  canonical_claim: z.string(),
  public_key: z.string(),
  verify_endpoint: z.string(),
  bypass_challenge: z.string(),
  carrier_endpoint: z.string(),
  timestamp: z.string(),
});

export const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 429: errorBody, 503: errorBody };

export { inclusionResponse, logKeysResponse, logResponse } from './log-schemas.js';
