import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { api, identityTenant } from '../helpers/identity.js';

describe('evidence tables are append-only in the database itself', () => {
  const { ctx } = useTestApp();

  const refused = (statement: ReturnType<typeof sql>) =>
    ctx.app.db.execute(statement).then(
      () => 'changed',
      (err: unknown) => String((err as { cause?: unknown }).cause ?? err),
    );

  it('refuses to change or delete a sealed governance record', async () => {
    const tenant = await governedTenant(ctx);
    const decided = await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key);
    expect(decided.status).toBe(201);
    const id = decided.body.record_id as string;
    expect(await refused(sql`update governance_records set disposition = 'DENY' where record_id = ${id}`)).toContain('append-only');
    expect(await refused(sql`delete from governance_records where record_id = ${id}`)).toContain('append-only');
    expect(rowsOf(await ctx.app.db.execute(sql`select 1 from governance_records where record_id = ${id}`))).toHaveLength(1);
  });

  it('refuses to change or delete an identity audit entry, and new entries still append', async () => {
    const tenant = await identityTenant(ctx);
    const v = await api(ctx).createVerification(tenant.backend);
    const count = async () =>
      rowsOf<{ n: number }>(
        await ctx.app.db.execute(sql`select count(*)::int as n from identity_audit_events where verification_id = ${v.id}`),
      )[0]!.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    expect(await refused(sql`update identity_audit_events set actor = 'someone else' where verification_id = ${v.id}`)).toContain(
      'append-only',
    );
    expect(await refused(sql`delete from identity_audit_events where verification_id = ${v.id}`)).toContain('append-only');
    const erased = await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/verifications/${v.id}`,
      headers: { authorization: `Bearer ${tenant.backend}` },
    });
    expect(erased.statusCode).toBe(200);
    expect(await count()).toBeGreaterThan(before);
  });
});
