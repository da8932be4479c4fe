import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OperatorRouteOptions } from '../services.js';
import * as s from '../schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope };

/** Tenants, their venues and their API keys: what every service's callers stand on. */
export const profileRoutes: FastifyPluginAsyncZod<OperatorRouteOptions> = async (app, { services }) => {
  const { profiles } = services;

  app.post(
    '/profiles',
    {
      schema: {
        operationId: 'createProfile',
        summary: 'Create a profile',
        tags: ['operator'],
        body: s.profileCreate,
        response: { 201: s.envelope(s.profile), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true, data: await profiles.create(req.body) }),
  );

  app.get(
    '/profiles/:id',
    {
      schema: {
        operationId: 'getProfile',
        summary: 'Get a profile',
        tags: ['operator'],
        params: s.idParams,
        response: { 200: s.envelope(s.profile), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await profiles.get(req.params.id) }),
  );

  app.patch(
    '/profiles/:id',
    {
      schema: {
        operationId: 'updateProfile',
        summary: "Change a profile's name, plan, review policy or identity retention",
        description:
          '`reviewPolicy` `four_eyes`: a reviewer decision on a verification in manual_review is final only when a second reviewer key agrees; ' +
          'the first decision is recorded (audit `review.first_decision`) and the case stays in the queue marked `awaiting_second_review`; ' +
          'on disagreement it stays marked `review_disagreement` and the next decision, by a third key, is final. A key never decides one case twice (409). Default `single`. ' +
          '`identityRetentionDays` (1–3650, or null, the default): a decided verification (approved or declined) is erased that many days after its decision, ' +
          'exactly as `DELETE /v1/verifications/{id}` erases it — images deleted, personal fields nulled, audit event `verification.erased` by actor `retention` — ' +
          'by an hourly housekeeping job; null keeps decided verifications until they are erased. Verifications in review or still capturing are never erased by it.',
        tags: ['operator'],
        params: s.idParams,
        body: s.profilePatch,
        response: { 200: s.envelope(s.profile), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await profiles.update(req.params.id, req.body) }),
  );

  app.post(
    '/profiles/:id/venues',
    {
      schema: {
        operationId: 'createVenue',
        summary: 'Add a venue to a profile',
        tags: ['operator'],
        params: s.idParams,
        body: s.venueCreate,
        response: { 201: s.envelope(s.venue), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true, data: await profiles.addVenue(req.params.id, req.body) }),
  );

  app.get(
    '/profiles/:id/venues',
    {
      schema: {
        operationId: 'listVenues',
        summary: "List a profile's venues",
        description: 'Oldest first.',
        tags: ['operator'],
        params: s.idParams,
        response: { 200: s.envelope(z.object({ items: z.array(s.venue) })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: { items: await profiles.listVenues(req.params.id) } }),
  );

  app.patch(
    '/profiles/:id/venues/:venueId',
    {
      schema: {
        operationId: 'updateVenue',
        summary: "Change a venue's name, address, city, coordinates or time zone",
        description:
          'Only the fields given change, checked as on create; `city` or `timezone` null clears it. ' +
          "A venue of another profile answers 404, as an unknown one. Events keep their own times: a venue's new time zone changes none.",
        tags: ['operator'],
        params: s.venueParams,
        body: s.venuePatch,
        response: { 200: s.envelope(s.venue), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await profiles.updateVenue(req.params.id, req.params.venueId, req.body) }),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        summary: 'Issue an API key',
        description:
          'Issues a key of one profile (the tenant): ticketing and governance keys with `scopes`, identity keys with `role`. The `key` is in this answer only; only its hash is stored. ' +
          'Optional `name` (1–80 characters) labels the key in the consoles and the audit trail. ' +
          'A reviewer key may have a `holder` (1–80 characters, the person who holds it): under four-eyes review two decisions by keys with the same holder (compared ignoring case and spacing) count as one reviewer, so the second is refused (409) as a second decision by the same key is; a key without holder is its own holder. `holder` on any other key → 400.',
        tags: ['operator'],
        body: s.apiKeyCreate,
        response: { 201: s.envelope(s.apiKey), ...errors },
      },
    },
    async (req, reply) => reply.status(201).send({ success: true, data: await profiles.issueKey(req.body) }),
  );

  app.get(
    '/api-keys',
    {
      schema: {
        operationId: 'listApiKeys',
        summary: 'List API keys',
        tags: ['operator'],
        querystring: z.object({ profileId: z.uuid().optional().describe("Only this profile's keys; omitted, every key, oldest first") }),
        response: { 200: s.envelope(z.object({ items: z.array(s.apiKey) })), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: { items: await profiles.listKeys(req.query.profileId) } }),
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        tags: ['operator'],
        params: s.idParams,
        response: { 200: s.envelope(s.apiKey), ...errors },
      },
    },
    async (req) => ({ success: true as const, data: await profiles.revokeKey(req.params.id) }),
  );
};
