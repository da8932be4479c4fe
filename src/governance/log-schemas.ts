import { z } from 'zod';

/** The transparency log's query and answer schemas (the OpenAPI document's source). */

/** A tree position; any integer is read, the ranges are judged by the service (422 PROOF_OUT_OF_RANGE). */
const position = (description: string) =>
  z.coerce
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1)
    .describe(description);
const hash = z.string().describe('A SHA-256 hash, base64');

export const logResponse = z.object({
  origin: z.string().describe('`<host of PUBLIC_URL>/governance/<profile id>`: the log of the caller’s profile'),
  tree_size: z.number().int().describe('How many records the tree holds; every record sealed before the request is in it'),
  checkpoint: z
    .string()
    .describe(
      'C2SP tlog-checkpoint in a C2SP signed note: origin, tree size and base64 root hash lines, a blank line, then `— <origin> <base64(4-byte key hash ‖ Ed25519 signature)>`, followed by one C2SP tlog-cosignature line `— <witness name> <base64(4-byte key hash ‖ 8-byte timestamp ‖ Ed25519 signature)>` per witness that has cosigned this tree size (note verifiers skip the lines of keys they do not know)',
    ),
  verifier_key: z.string().describe('The note verifier key `<origin>+<8 hex key hash>+<base64(0x01 ‖ Ed25519 public key)>`'),
  ml_dsa: z
    .object({
      public_key: z.string().describe('ML-DSA-65 public key, base64'),
      signature: z
        .string()
        .describe('ML-DSA-65 (FIPS 204) signature over the checkpoint body (the note text before the blank line), base64'),
    })
    .describe('A post-quantum signature over the same checkpoint body'),
  cosignatures: z
    .array(
      z.object({
        witness: z.string().describe('The witness’s name, as in its note verifier key in LOG_WITNESSES and its line in `checkpoint`'),
        timestamp: z.string().describe('When the witness cosigned, from its cosignature (RFC 3339, whole seconds)'),
      }),
    )
    .describe(
      'The witnesses (LOG_WITNESSES) that have cosigned this very tree size, by name; a witness still catching up is absent until it answers. Check them offline with `verify-record --witness <vkey> … --quorum N`.',
    ),
});

export const logKeysResponse = z.object({
  keys: z
    .array(
      z.object({
        origin: z.string().describe('The log’s origin, `<host of PUBLIC_URL>/governance/<profile id>`: the first line of its checkpoints'),
        verifier_key: z.string().describe('The note verifier key of its checkpoints (as `verifier_key` in GET /v1/governance/log)'),
        ml_dsa_public_key: z.string().describe('The ML-DSA-65 public key of its checkpoints, base64 (as `ml_dsa.public_key` there)'),
        created_at: z.string().describe('When these keys first signed for this origin (RFC 3339)'),
      }),
    )
    .describe('One entry per profile with a log (a governance key or records), oldest profile first'),
});

export const notModified = z.null().describe('Not modified: the list the If-None-Match ETag names is current; no body');

export const inclusionQuery = z.object({
  seq: position('The record’s seq (its leaf index is seq − 1)'),
  tree_size: position('The size of the tree to prove inclusion in (at most the current tree size)'),
});
export const inclusionResponse = z.object({
  seq: z.number().int(),
  leaf_index: z.number().int().describe('seq − 1'),
  tree_size: z.number().int(),
  leaf_hash: hash.describe('SHA-256(0x00 ‖ the record’s RFC 8785 canonical JSON, signature included), base64'),
  proof: z.array(hash).describe('The RFC 9162 §2.1.3 inclusion proof, deepest hash first'),
});

export const consistencyQuery = z.object({
  from: position('The older tree size (at least 1)'),
  to: position('The newer tree size (at most the current tree size)'),
});
export const consistencyResponse = z.object({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(hash).describe('The RFC 9162 §2.1.4 consistency proof (empty when from = to)'),
});
