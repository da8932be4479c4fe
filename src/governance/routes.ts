import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../plugins/openapi-security.js';
import type { BoundaryService } from './boundary.js';
import { useGovernanceNotFound } from './error-handler.js';
import { transparencyLogRoutes } from './log-routes.js';
import { profileOf } from './principal.js';
import { configFrom } from '../config.js';
import * as s from './schemas.js';
import type { GovernanceService } from './service.js';
import { proofBoundaryStatement } from './statement.js';
import type { TransparencyLog } from './transparency-log.js';

interface Deps {
  service: GovernanceService;
  boundary: BoundaryService;
  log: TransparencyLog;
}

const tags = ['governance'];
const rateNote = `Rate limit: GOVERNANCE_RATE_LIMIT_PER_MINUTE (default ${configFrom().GOVERNANCE_RATE_LIMIT_PER_MINUTE}) requests per minute per API key (per client IP on public routes).`;
const withRejections = { ...s.errors, 409: s.errorBody, 422: s.errorBody };

export const governanceRoutes: FastifyPluginAsyncZod<Deps> = async (app, { service, boundary, log }) => {
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
      return reply
        .status(201)
        .type('application/json; charset=utf-8')
        .send(canonical as never);
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

export const proofRoutes: FastifyPluginAsyncZod<Deps> = async (app, { service }) => {
  useGovernanceNotFound(app);

  app.get(
    '/boundaries',
    {
      schema: {
        operationId: 'getProofBoundaries',
        summary: 'The proof-boundary statement',
        tags,
        security: securityOf.none,
        description: 'The proof-boundary statement (public).',
        response: { 200: s.statementResponse, ...s.errors },
      },
    },
    async () => proofBoundaryStatement(service.signingKey.publicKey.toString('base64'), service.clock.now()),
  );

  app.post(
    '/scenario/run',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'runProofScenario',
        summary: 'Run the proof scenario',
        tags,
        description: `Seals a decision of the fixed scenario (reserved agent "proof-scenario-agent", created on demand in the caller's profile). A: every condition good → ALLOW. B: authority_status EXPIRED → DENY. The response is the sealed record plus condition and changed_condition (null for A); record holds the sealed record alone, exactly as signed. ${rateNote}`,
        security: securityOf.governance,
        body: s.scenarioRequest,
        response: { 201: s.scenarioResponse, ...s.errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.runScenario(profileOf(req), req.body.condition)),
  );
};

export const cryptoRoutes: FastifyPluginAsyncZod<Deps> = async (app, { service, boundary }) => {
  useGovernanceNotFound(app);

  app.get(
    '/keys',
    {
      schema: {
        operationId: 'listGovernanceKeys',
        summary: 'Public signing keys',
        tags,
        security: securityOf.none,
        description: 'Current and retired public keys (base64 raw 32 bytes) with their ids.',
        response: { 200: s.keysResponse, ...s.errors },
      },
    },
    async () => {
      const keys = await service.listKeys();
      return {
        keys: keys.map((k) => ({
          kid: k.kid,
          key_id: k.kid,
          algorithm: 'Ed25519' as const,
          public_key: k.publicKey,
          status: k.retiredAt ? ('retired' as const) : ('current' as const),
          created_at: k.createdAt,
          retired_at: k.retiredAt,
        })),
      };
    },
  );

  app.post(
    '/verify',
    {
      schema: {
        operationId: 'verifyGovernanceRecord',
        summary: "Verify a record's signature",
        tags,
        security: securityOf.none,
        description:
          "Verifies a record's signature (public). Freshness and the record's place in its chain are reported separately and do not affect `valid`.",
        body: s.presentedRecord,
        response: { 200: s.verifyResponse, ...s.errors },
      },
    },
    async (req) => boundary.verify(req.body.record),
  );
};

export const challengeRoutes: FastifyPluginAsyncZod<Deps> = async (app, { boundary }) => {
  useGovernanceNotFound(app);

  app.post(
    '/bypass',
    {
      config: { governanceScope: 'governance:decide' },
      schema: {
        operationId: 'challengeBypass',
        summary: 'Try a bypass without consuming anything',
        tags,
        description:
          'Runs a bypass attempt through the same checks as admit without consuming anything. Without `record`, the service builds the attempt from a fresh scenario decision. A record that would be admitted answers rejected=false, code=null.',
        security: securityOf.governance,
        body: s.bypassRequest,
        response: { 200: s.bypassResponse, ...s.errors },
      },
    },
    async (req) => boundary.challenge(profileOf(req), req.body.kind, req.body.record),
  );
};

export const carrierRoutes: FastifyPluginAsyncZod<Deps> = async (app, { service }) => {
  useGovernanceNotFound(app);

  app.get(
    '/:execution_id',
    {
      config: { governanceScope: 'governance:read' },
      schema: {
        operationId: 'getCarrier',
        summary: 'The carrier of an execution',
        tags,
        description: 'The carrier of an execution: its sealed record and every presentation at the execution boundary.',
        security: securityOf.governance,
        params: s.carrierParams,
        response: { 200: s.carrierResponse, ...s.errors },
      },
    },
    async (req) => service.carrier(profileOf(req), req.params.execution_id),
  );
};
