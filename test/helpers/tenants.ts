import type { TestContext } from './app.js';

export interface Tenant {
  profileId: string;
  key: string;
  keyId: string;
}

/** A profile on `plan` with one key of `service`; venues and more keys can be added with ctx.admin. */
export async function createTenant(
  ctx: TestContext,
  grant:
    | { service: 'ticketing'; scopes: string[]; plan?: 'ENTERPRISE' | 'PRO' | 'FREE' }
    | { service: 'identity'; role: 'backend' | 'reviewer'; plan?: 'ENTERPRISE' | 'PRO' | 'FREE' }
    | { service: 'governance'; scopes: string[]; plan?: 'ENTERPRISE' | 'PRO' | 'FREE' },
): Promise<Tenant> {
  const profile = await ctx.admin('POST', '/profiles', {
    name: `Tenant ${Math.random().toString(36).slice(2, 8)}`,
    plan: grant.plan ?? 'ENTERPRISE',
  });
  const key = await addKey(ctx, profile.data.id, grant);
  return { profileId: profile.data.id, key: key.key, keyId: key.keyId };
}

export async function addKey(
  ctx: TestContext,
  profileId: string,
  grant: ({ service: 'ticketing' | 'governance'; scopes: string[] } | { service: 'identity'; role: 'backend' | 'reviewer' }) & {
    name?: string;
    /** Who holds a reviewer key: keys of one holder count as one reviewer under four-eyes review. */
    holder?: string;
  },
): Promise<{ key: string; keyId: string }> {
  const named = { ...(grant.name ? { name: grant.name } : {}), ...(grant.holder ? { holder: grant.holder } : {}) };
  const body =
    grant.service === 'identity'
      ? { service: 'identity', profileId, role: grant.role, ...named }
      : { service: grant.service, profileId, scopes: grant.scopes, ...named };
  const res = await ctx.admin('POST', '/api-keys', body);
  return { key: res.data.key, keyId: res.data.id };
}
