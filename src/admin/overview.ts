import type { Db } from '../db/client.js';
import { verificationView } from '../identity/views.js';
import { isUuid } from '../lib/uuid.js';
import { toIso } from '../lib/time.js';
import { profileErrors } from '../profiles/errors.js';
import { eventView } from '../ticketing/views.js';
import * as repo from './overview-repo.js';

/**
 * What the operator console lists (README "Consoles"): profiles, and per profile its
 * verifications, ticketing events, governance agents and delegations. Reads only; the actions
 * have their own operator routes.
 */
export function createOperatorOverview(db: Db) {
  async function requireProfile(id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.profileExists(db, id))) throw profileErrors.profileNotFound();
  }

  return {
    async profiles(page: repo.Page) {
      const { items, total } = await repo.profilesPage(db, page);
      return { items: items.map((p) => ({ id: p.id, name: p.name, plan: p.plan, createdAt: toIso(p.createdAt) })), total, ...page };
    },

    async verifications(profileId: string, status: repo.VerificationStatus | undefined, page: repo.Page) {
      await requireProfile(profileId);
      const { items, total } = await repo.verificationsPage(db, profileId, status, page);
      return { items: items.map(verificationView), total, ...page };
    },

    async events(profileId: string, status: repo.EventStatus | undefined, page: repo.Page) {
      await requireProfile(profileId);
      const { items, total } = await repo.eventsPage(db, profileId, status, page);
      return { items: items.map(eventView), total, ...page };
    },

    async governance(profileId: string) {
      await requireProfile(profileId);
      const [agents, delegations] = await Promise.all([repo.agentsOf(db, profileId), repo.delegationsOfProfile(db, profileId)]);
      return {
        agents: agents.map((a) => ({
          id: a.id,
          profileId: a.profileId,
          agentId: a.agentId,
          mandate: a.mandate,
          baseline: { fingerprint: a.baselineFingerprint, maxDrift: a.baselineMaxDrift },
          createdAt: toIso(a.createdAt),
        })),
        delegations: delegations.map((d) => ({
          id: d.id,
          profileId: d.profileId,
          agentId: d.agentId,
          grantedBy: d.grantedBy,
          expiresAt: toIso(d.expiresAt),
          revokedAt: d.revokedAt ? toIso(d.revokedAt) : null,
          createdAt: toIso(d.createdAt),
        })),
      };
    },
  };
}
