import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { securityOf } from '../../plugins/openapi-security.js';
import { useGovernanceNotFound } from '../errors.js';
import * as s from '../schemas.js';
import { tags, type RouteDeps } from './common.js';

/** /v1/crypto: the public signing keys and signature verification, both public. */
export const cryptoRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { service, boundary }) => {
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
