import { GOVERNANCE_SCOPES } from '../../src/db/vocabulary.js';
import type { InjectOptions } from 'fastify';
import type { TestContext } from './app.js';
import { createTenant, type Tenant } from './tenants.js';

export const BOTH_SCOPES = [...GOVERNANCE_SCOPES];

/** Calls a governance route with a key (or none) and returns status and parsed body. */
export async function call(ctx: TestContext, method: InjectOptions['method'], url: string, body?: unknown, key?: string) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined, raw: res };
}

/** A profile with a decide+read key, one agent (mandate payments.*, baseline fp-1/0.2) and a delegation for a day. */
export async function governedTenant(ctx: TestContext, agentId = 'agent-7'): Promise<Tenant & { delegationId: string }> {
  const tenant = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
  await ctx.admin('POST', '/governance/agents', {
    profileId: tenant.profileId,
    agentId,
    mandate: ['payments.*', 'reports.read'],
    baseline: { fingerprint: 'fp-1', maxDrift: 0.2 },
  });
  const delegation = await ctx.admin('POST', '/governance/delegations', {
    profileId: tenant.profileId,
    agentId,
    grantedBy: 'cfo@example.com',
    expiresAt: new Date(ctx.clock.now().getTime() + 24 * 3600_000).toISOString(),
  });
  return { ...tenant, delegationId: delegation.data.id };
}

/** A decision body that every gate passes: a LOW-tier payment at the clock's now. */
export function goodDecision(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  return {
    agent_id: 'agent-7',
    action: 'payments.refund',
    authority_status: 'VALID',
    human_present: false,
    consequence_tier: 'LOW',
    timestamp: ctx.clock.now().toISOString(),
    behavior: { fingerprint: 'fp-1', drift: 0.05 },
    ...overrides,
  };
}
