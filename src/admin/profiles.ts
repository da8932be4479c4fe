import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { issueApiKey, notifyApiKeysChanged, revokeApiKey } from '../auth/api-keys.js';
import { apiKeys, profiles, venues } from '../db/schema/core.js';
import { profileErrors } from '../profiles/errors.js';
import { isUuid } from '../lib/uuid.js';
import { toIso } from '../lib/time.js';
import * as s from './schemas.js';

const errors = { 400: s.errorEnvelope, 401: s.errorEnvelope, 404: s.errorEnvelope };

/** Tenants, their venues and their API keys: what every service's callers stand on. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock } = app;

  async function loadProfile(id: string) {
    if (!isUuid(id)) throw profileErrors.profileNotFound();
    const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
    if (!row) throw profileErrors.profileNotFound();
    return row;
  }

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
    async (req, reply) => {
      const now = clock.now();
      const [row] = await db
        .insert(profiles)
        .values({ ...req.body, createdAt: now, updatedAt: now })
        .returning();
      return reply.status(201).send({ success: true, data: { id: row!.id, name: row!.name, plan: row!.plan } });
    },
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
    async (req) => {
      const row = await loadProfile(req.params.id);
      return { success: true as const, data: { id: row.id, name: row.name, plan: row.plan } };
    },
  );

  app.patch(
    '/profiles/:id',
    {
      schema: {
        operationId: 'updateProfile',
        summary: "Change a profile's name or plan",
        tags: ['operator'],
        params: s.idParams,
        body: s.profilePatch,
        response: { 200: s.envelope(s.profile), ...errors },
      },
    },
    async (req) => {
      await loadProfile(req.params.id);
      const [row] = await db
        .update(profiles)
        .set({ ...req.body, updatedAt: clock.now() })
        .where(eq(profiles.id, req.params.id))
        .returning();
      // Cached keys carry the plan: every instance must see the new one at once.
      if (req.body.plan) await notifyApiKeysChanged(db);
      return { success: true as const, data: { id: row!.id, name: row!.name, plan: row!.plan } };
    },
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
    async (req, reply) => {
      const profile = await loadProfile(req.params.id);
      const [row] = await db
        .insert(venues)
        .values({
          profileId: profile.id,
          name: req.body.name,
          address: req.body.address,
          city: req.body.city ?? null,
          lat: req.body.lat,
          lng: req.body.lng,
          timezone: req.body.timezone ?? null,
          createdAt: clock.now(),
        })
        .returning();
      return reply.status(201).send({ success: true, data: { ...row!, createdAt: toIso(row!.createdAt) } });
    },
  );

  app.post(
    '/api-keys',
    {
      schema: {
        operationId: 'createApiKey',
        summary: 'Issue an API key',
        tags: ['operator'],
        body: s.apiKeyCreate,
        response: { 201: s.envelope(s.apiKey), ...errors },
      },
    },
    async (req, reply) => {
      await loadProfile(req.body.profileId);
      const grant = req.body;
      const { row, key } = await issueApiKey(db, clock, {
        profileId: grant.profileId,
        service: grant.service,
        ...('scopes' in grant ? { scopes: grant.scopes } : { role: grant.role }),
      });
      return reply.status(201).send({ success: true, data: { ...keyView(row), key } });
    },
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
    async (req) => {
      const { profileId } = req.query;
      const rows = await db
        .select()
        .from(apiKeys)
        .where(profileId ? eq(apiKeys.profileId, profileId) : undefined)
        .orderBy(apiKeys.createdAt, apiKeys.id);
      return { success: true as const, data: { items: rows.map(keyView) } };
    },
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
    async (req) => {
      if (!isUuid(req.params.id)) throw profileErrors.apiKeyNotFound();
      const revoked = await revokeApiKey(db, clock, req.params.id);
      const row =
        revoked ??
        (
          await db
            .select()
            .from(apiKeys)
            .where(and(eq(apiKeys.id, req.params.id)))
        )[0];
      if (!row) throw profileErrors.apiKeyNotFound();
      return { success: true as const, data: keyView(row) };
    },
  );
};

function keyView(row: typeof apiKeys.$inferSelect) {
  return {
    id: row.id,
    service: row.service,
    profileId: row.profileId,
    ...(row.service === 'identity' ? { role: row.role ?? undefined } : { scopes: row.scopes }),
    createdAt: toIso(row.createdAt),
    revokedAt: row.revokedAt ? toIso(row.revokedAt) : null,
  };
}
