import type { KeyPrincipal } from '../auth/api-keys.js';
import type { GovernanceScope } from '../db/vocabulary.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a governance route requires; absent on its public routes. */
    governanceScope?: GovernanceScope;
  }
  interface FastifyRequest {
    governancePrincipal: KeyPrincipal | null;
  }
}
