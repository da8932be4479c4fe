import type { KeyPrincipal } from '../auth/api-keys.js';
import type { GovernanceScope } from '../profiles/vocabulary.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a governance route requires; absent on its public routes. */
    governanceScope?: GovernanceScope;
  }
  interface FastifyRequest {
    governancePrincipal: KeyPrincipal | null;
  }
}

/**
 * The default of GOVERNANCE_RATE_LIMIT_PER_MINUTE: requests per minute per governance key (per
 * client IP on the public routes), counted across all governance paths together, and across
 * instances when REDIS_URL is set. The governance API's own choice (README, Configuration).
 */
export const GOVERNANCE_RATE_LIMIT_PER_MINUTE = 600;
