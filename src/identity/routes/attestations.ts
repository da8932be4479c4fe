import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AttestationService } from '../attestations.js';
import { claimCatalogue } from '../claims.js';
import { securityOf } from '../../plugins/openapi-security.js';
import * as s from '../schemas.js';

const tags = ['identity: attestations'];

/** Attestations of claims, the claim catalogue and the public keys that verify them. */
export const attestationRoutes: FastifyPluginAsyncZod<{ attestations: AttestationService }> = async (app, { attestations }) => {
  app.get(
    '/attestations/claims',
    {
      schema: {
        operationId: 'listAttestationClaims',
        summary: 'The claim catalogue',
        tags,
        security: securityOf.none,
        description:
          'The claim catalogue. Claims with `needs_mrz` need a document uploaded with its machine-readable zone; without it they answer 409.',
        response: { 200: s.claimCatalogue, ...s.errors() },
      },
    },
    async () => claimCatalogue(),
  );

  app.post(
    '/attestations/:id',
    {
      config: { identityRole: 'backend' },
      schema: {
        operationId: 'createAttestation',
        summary: 'Attest a claim of an approved verification',
        tags,
        security: securityOf.identityBackend,
        description:
          'Attests one catalogued claim of an approved verification. `jws` is a compact JWS (alg EdDSA, `kid` header) with `iss` = `<PUBLIC_URL>/v1`, `aud` = the profile id of the calling key, `sub` = verification id, `jti` = attestation id, `iat`, `exp` (90 days), `claim`, `value` and the claim itself, ' +
          'verifiable with GET /v1/.well-known/jwks.json; a relying party must check `iss` and that `aud` is its own profile id, since one key signs every profile’s attestations. Unknown claim → 422; verification not approved → 409; claim the data cannot support (no MRZ) → 409.',
        params: s.idParams,
        body: s.attestationBody,
        response: { 201: s.attestation, ...s.errors(401, 403, 404, 409, 422) },
      },
    },
    async (req, reply) => reply.status(201).send(await attestations.issue(req.identityPrincipal!, req.params.id, req.body.claim)),
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        operationId: 'identityJwks',
        summary: 'Public keys of attestations and decision webhooks (JWKS)',
        tags,
        security: securityOf.none,
        description:
          'OKP/Ed25519 public keys (live and retired) that verify attestations (`purpose: attestation`) and decision webhooks (`purpose: identity-webhook`). One key of each purpose serves every profile: check `aud` (attestations) or `data.profile_id` (webhooks) against your own profile id.',
        response: { 200: s.jwks, ...s.errors() },
      },
    },
    async () => attestations.jwks(),
  );
};
