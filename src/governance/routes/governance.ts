import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import { sendJsonText } from '../../plugins/serializer.js';
import { useGovernanceNotFound } from '../errors.js';
import { profileOf } from '../principal.js';
import * as s from '../schemas.js';
import { rateNote, tags, withRejections, type RouteDeps } from './common.js';
import { transparencyLogRoutes } from './log.js';

/** /v1/governance: decisions sealed and replayed, the tenant's records, the execution boundary, and its transparency log. */
export const governanceRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service, boundary, log }) => {
  useGovernanceNotFound(app);
  await app.register(transparencyLogRoutes, { log });

  app.post(
    '/decisions',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'createGovernanceDecision',
        summary: 'Seal a governance decision',
        tags,
        description: [
          "Evaluates the four gates for an agent action and seals the disposition as the next record of the tenant's chain (seq, prev_hash), signed with Ed25519 over the RFC 8785 canonical JSON of the record without `signature`.",
          'Gate 1: behavior.fingerprint must equal the baseline fingerprint and behavior.drift must be ≤ maxDrift (equal passes); without `behavior` nothing was observed to deviate and the gate passes.',
          'Gate 2: the action must match a mandate pattern; patterns are dot-separated, `*` matches one segment, a trailing `*` one or more (`payments.*` covers `payments.refund`, not `payments`).',
          'Gate 3: a delegation unrevoked and expiring strictly after `timestamp` (expiring exactly then is expired), and authority_status VALID.',
          'Gate 4: CRITICAL/EMERGENCY with human_present=false fails (DENY, never ESCALATE); HIGH or above with a human present escalates.',
          'A gate that cannot read its inputs fails (fail closed). The record expires 300 s after issued_at.',
          'The 201 body is the record as its RFC 8785 canonical JSON (keys sorted), byte for byte the text whose SHA-256 the next record carries as prev_hash.',
          'The body is read strictly: duplicate keys, lone surrogates, integers beyond 2^53 and non-finite numbers are refused (400 VALIDATION_ERROR).',
          rateNote,
        ].join(' '),
        security: securityOf.governance,
        body: s.decisionRequest,
        response: { 201: s.sealedRecord, ...s.errors },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const { canonical } = await service.decide(profileOf(req), { ...body, behavior: body.behavior ?? undefined });
      // The record's canonical JSON, exactly as signed and stored: it is the schema's shape already.
      return sendJsonText(reply, 201, canonical);
    },
  );

  app.post(
    '/replay',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'replayGovernanceDecision',
        summary: 'Replay a sealed decision',
        tags,
        description: 'Re-runs the pure gate evaluation on record.inputs and compares it with the sealed disposition and gates.',
        security: securityOf.governance,
        body: s.presentedRecord,
        response: { 200: s.replayResponse, ...s.errors },
      },
    },
    async (req) => boundary.replay(req.body.record),
  );

  app.get(
    '/records',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'listGovernanceRecords',
        summary: "Export the tenant's sealed records",
        tags,
        description: [
          "The caller's profile's sealed records in seq order, each exactly as it was issued (signature included), a page at a time:",
          "pass next_after_seq as after_seq for the next page; it is null at the end of the chain. Other profiles' records are never included.",
          'Save the answer (or its `records` array) and check it offline with `verify-record <file> --chain --public-key <base64>`.',
          rateNote,
        ].join(' '),
        security: securityOf.governance,
        querystring: s.recordsQuery,
        response: { 200: s.recordsResponse, ...s.errors },
      },
    },
    async (req) => service.exportRecords(profileOf(req), req.query.after_seq, req.query.limit),
  );

  app.post(
    '/admit',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'admitGovernanceRecord',
        summary: 'Admit a record at the execution boundary',
        tags,
        description:
          'The execution boundary: admits an authentic, unexpired ALLOW record exactly once. Rejections: 409 RECEIPT_REPLAYED; 422 SIGNATURE_INVALID, RECEIPT_EXPIRED, TIMESTAMP_OUT_OF_WINDOW, NOT_ALLOWED (checked in that order). Every attempt is logged on the carrier.',
        security: securityOf.governance,
        body: s.presentedRecord,
        response: { 200: s.admitResponse, ...withRejections },
      },
    },
    async (req) => boundary.admit(profileOf(req), req.body.record),
  );
};
