import type { EventStatus } from '../db/vocabulary.js';
import type { VerificationFilter } from '../identity/service.js';
import type { OperatorServices } from './services.js';

interface Page {
  page: number;
  limit: number;
}
const windowOf = ({ page, limit }: Page) => ({ limit, offset: (page - 1) * limit });

/**
 * What the operator console lists (docs/consoles.md "Consoles"): profiles, and per profile its
 * verifications, ticketing events, governance agents and delegations, each read through the
 * service that owns it. Reads only; the actions have their own operator routes.
 */
export function createOperatorOverview(services: OperatorServices) {
  const { profiles } = services;
  const { requireProfile } = profiles;
  const identity = services.identity.reads;
  const ticketing = services.ticketing.reads;
  const governance = services.governance.operator;

  return {
    async profiles(page: Page) {
      return { ...(await profiles.listProfiles(windowOf(page))), ...page };
    },

    async verifications(profileId: string, filter: VerificationFilter, page: Page) {
      await requireProfile(profileId);
      return { ...(await identity.verifications(profileId, filter, windowOf(page))), ...page };
    },

    async events(profileId: string, status: EventStatus | undefined, page: Page) {
      await requireProfile(profileId);
      return { ...(await ticketing.events(profileId, status, windowOf(page))), ...page };
    },

    async governance(profileId: string) {
      return governance.profileGovernance(profileId);
    },
  };
}
