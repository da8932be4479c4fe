import type { Db } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { agentView, delegationView } from '../governance/views.js';
import { verificationView } from '../identity/views.js';
import { toIso } from '../lib/time.js';
import { createProfileService } from '../profiles/service.js';
import { eventView } from '../ticketing/views.js';
import * as repo from './overview-repo.js';

/**
 * What the operator console lists (README "Consoles"): profiles, and per profile its
 * verifications, ticketing events, governance agents and delegations. Reads only; the actions
 * have their own operator routes.
 */
export function createOperatorOverview(db: Db, clock: Clock) {
  const { requireProfile } = createProfileService({ db, clock });

  return {
    async profiles(page: repo.Page) {
      const { items, total } = await repo.profilesPage(db, page);
      return {
        items: items.map((p) => ({ id: p.id, name: p.name, plan: p.plan, reviewPolicy: p.reviewPolicy, createdAt: toIso(p.createdAt) })),
        total,
        ...page,
      };
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
      return { agents: agents.map(agentView), delegations: delegations.map(delegationView) };
    },
  };
}
