import { issueApiKey, notifyApiKeysChanged, revokeApiKey, type ApiKeyGrant } from '../auth/api-keys.js';
import * as keys from '../auth/repo.js';
import type { DbOrTx } from '../db/client.js';
import type { Window } from '../db/paged.js';
import type { Clock } from '../lib/clock.js';
import { toIso } from '../lib/time.js';
import { profileErrors } from './errors.js';
import * as repo from './repo.js';
import type { Plan, ReviewPolicy } from '../db/vocabulary.js';
import { apiKeyView, profileView, venueView } from './views.js';

interface VenueInput {
  name: string;
  address: string;
  city?: string | undefined;
  lat: number;
  lng: number;
  timezone?: string | undefined;
}

/** A venue's changes: only the fields present change; `city` and `timezone` may be cleared with null. */
interface VenuePatch {
  name?: string | undefined;
  address?: string | undefined;
  city?: string | null | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
  timezone?: string | null | undefined;
}

/** A profile's changes: only the fields present change; `identityRetentionDays` null keeps decided verifications. */
interface ProfilePatch {
  name?: string | undefined;
  plan?: Plan | undefined;
  reviewPolicy?: ReviewPolicy | undefined;
  identityRetentionDays?: number | null | undefined;
  privacyPolicyUrl?: string | null | undefined;
}

/**
 * Profiles (the tenants), their venues and their API keys: what the operator API manages and
 * every other API's callers stand on. An id that is not a UUID is simply not found (404): the
 * repository's lookups answer nothing for it.
 */
export function createProfileService({ db, clock }: { db: DbOrTx; clock: Clock }) {
  async function requireProfile(id: string): Promise<repo.ProfileRow> {
    const row = await repo.findProfile(db, id);
    if (!row) throw profileErrors.profileNotFound();
    return row;
  }

  return {
    exists: (id: string): Promise<boolean> => repo.profileExists(db, id),

    /** Throws the operator API's 404 unless the profile exists. */
    async requireProfile(id: string): Promise<void> {
      if (!(await repo.profileExists(db, id))) throw profileErrors.profileNotFound();
    },

    async create(input: { name: string; plan: Plan }) {
      const now = clock.now();
      return profileView(await repo.insertProfile(db, { ...input, createdAt: now, updatedAt: now }));
    },

    async get(id: string) {
      return profileView(await requireProfile(id));
    },

    async update(id: string, changes: ProfilePatch) {
      const row = await repo.updateProfile(db, id, {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.plan !== undefined ? { plan: changes.plan } : {}),
        ...(changes.reviewPolicy !== undefined ? { reviewPolicy: changes.reviewPolicy } : {}),
        ...(changes.identityRetentionDays !== undefined ? { identityRetentionDays: changes.identityRetentionDays } : {}),
        ...(changes.privacyPolicyUrl !== undefined ? { privacyPolicyUrl: changes.privacyPolicyUrl } : {}),
        updatedAt: clock.now(),
      });
      if (!row) throw profileErrors.profileNotFound();
      // Cached keys carry the plan: every instance must see the new one at once.
      if (changes.plan) await notifyApiKeysChanged(db);
      return profileView(row);
    },

    async addVenue(profileId: string, input: VenueInput) {
      const profile = await requireProfile(profileId);
      const row = await repo.insertVenue(db, {
        profileId: profile.id,
        name: input.name,
        address: input.address,
        city: input.city ?? null,
        lat: input.lat,
        lng: input.lng,
        timezone: input.timezone ?? null,
        createdAt: clock.now(),
      });
      return venueView(row);
    },

    async listVenues(profileId: string) {
      await requireProfile(profileId);
      return (await repo.listVenues(db, profileId)).map(venueView);
    },

    /**
     * Changes the fields given; `city` or `timezone` null clears it. A venue of another profile
     * is not found (404), as an unknown one: a profile never learns of another's venues.
     */
    async updateVenue(profileId: string, venueId: string, changes: VenuePatch) {
      await requireProfile(profileId);
      const present = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const row = await repo.updateVenue(db, profileId, venueId, present);
      if (!row) throw profileErrors.venueNotFound();
      return venueView(row);
    },

    /** Issues a key; the key itself is in the answer once and never again (only its hash is stored). */
    async issueKey(grant: ApiKeyGrant) {
      await requireProfile(grant.profileId);
      const { row, key } = await issueApiKey(db, clock, grant);
      return { ...apiKeyView(row), key };
    },

    /** Every profile, newest first, with its creation time: one page and the total (the operator console's list). */
    async listProfiles(w: Window) {
      const { rows, total } = await repo.profilesPage(db, w);
      return { items: rows.map((p) => ({ ...profileView(p), createdAt: toIso(p.createdAt) })), total };
    },

    async listKeys(profileId?: string) {
      return (await keys.listApiKeys(db, profileId)).map(apiKeyView);
    },

    /** Revokes a key (every instance stops accepting it at once); an already revoked key keeps its first revocation time. */
    async revokeKey(id: string) {
      const row = (await revokeApiKey(db, clock, id)) ?? (await keys.findApiKey(db, id));
      if (!row) throw profileErrors.apiKeyNotFound();
      return apiKeyView(row);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
