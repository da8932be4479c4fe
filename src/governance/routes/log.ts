import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../log-schemas.js';
import { errors, errorBody } from '../schemas.js';
import { profileOf } from '../principal.js';
import type { TransparencyLog } from '../transparency-log.js';
import { tags } from './common.js';

const withRange = { ...errors, 422: errorBody };
/** Keys change only when a profile starts its log: caches may keep the list this long. */
const LOG_KEYS_MAX_AGE_SECONDS = 300;

/** Whether an If-None-Match header names `etag` (a list of tags, weak or strong, or `*`). */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The transparency log of the caller's profile under /v1/governance (docs/governance.md, "Transparency log"). */
export const transparencyLogRoutes: FastifyPluginAsyncZod<{ log: TransparencyLog }> = async (app, { log }) => {
  app.get(
    '/log',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'getGovernanceLog',
        summary: "The signed checkpoint of the tenant's transparency log",
        tags,
        description: [
          "The caller's profile's records are the leaves of an RFC 9162 Merkle tree (leaf = a record's RFC 8785 canonical JSON, signature included; leaf index = seq − 1).",
          'This answers its current checkpoint as a C2SP signed note with the note verifier key (Ed25519, a key of its own purpose), and an ML-DSA-65 signature over the same checkpoint body.',
          'Save the checkpoint and verify records offline: `verify-record record.json --checkpoint <note> --verifier-key <vkey> --proof <inclusion answer>`.',
        ].join(' '),
        security: securityOf.governance,
        response: { 200: s.logResponse, ...errors },
      },
    },
    async (req) => log.checkpoint(profileOf(req)),
  );

  app.get(
    '/log/keys',
    {
      schema: {
        operationId: 'listGovernanceLogKeys',
        summary: "Every profile's transparency-log keys, for auditors to pin",
        tags,
        description: [
          'Public and cacheable: the origin, note verifier key and ML-DSA-65 public key of every profile’s log (a profile has one once it holds a governance key or records).',
          'An auditor pins a log’s keys from here (or from the operator: `npm run admin -- list-transparency-log-keys`), not from the checkpoint answer it checks, so a checkpoint cannot vouch for itself with a key of its own choosing.',
          `Cache-Control: public, max-age=${LOG_KEYS_MAX_AGE_SECONDS}, and an ETag: send If-None-Match to get 304 while the list is unchanged.`,
        ].join(' '),
        security: securityOf.none,
        response: { 200: s.logKeysResponse, 304: s.notModified, ...errors },
      },
    },
    async (req, reply) => {
      const answer = await log.keys();
      const etag = `"${createHash('sha256').update(JSON.stringify(answer)).digest('base64url').slice(0, 27)}"`;
      reply.header('cache-control', `public, max-age=${LOG_KEYS_MAX_AGE_SECONDS}`).header('etag', etag);
      if (ifNoneMatch(req.headers['if-none-match'], etag)) return reply.status(304).send(null);
      return answer;
    },
  );

  app.get(
    '/proofs/inclusion',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'getGovernanceInclusionProof',
        summary: 'Prove a record is in a checkpoint’s tree',
        tags,
        description:
          'The RFC 9162 inclusion proof of the record `seq` in the tree of `tree_size` records. 422 PROOF_OUT_OF_RANGE when seq < 1, seq > tree_size or tree_size is beyond the current tree.',
        security: securityOf.governance,
        querystring: s.inclusionQuery,
        response: { 200: s.inclusionResponse, ...withRange },
      },
    },
    async (req) => log.inclusionProof(profileOf(req), req.query.seq, req.query.tree_size),
  );

  app.get(
    '/proofs/consistency',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'getGovernanceConsistencyProof',
        summary: 'Prove a later checkpoint extends an earlier one',
        tags,
        description:
          'The RFC 9162 consistency proof between the trees of `from` and `to` records: the older tree is a prefix of the newer. 422 PROOF_OUT_OF_RANGE when from < 1, from > to or to is beyond the current tree.',
        security: securityOf.governance,
        querystring: s.consistencyQuery,
        response: { 200: s.consistencyResponse, ...withRange },
      },
    },
    async (req) => log.consistencyProof(profileOf(req), req.query.from, req.query.to),
  );
};
