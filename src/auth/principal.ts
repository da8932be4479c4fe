import type { IdentityRole, KeyService, Plan } from '../db/vocabulary.js';

/** The caller behind a verified key. */
export interface KeyPrincipal {
  keyId: string;
  keyHash: string;
  profileId: string;
  plan: Plan;
  service: KeyService;
  scopes: string[];
  role: IdentityRole | null;
}
