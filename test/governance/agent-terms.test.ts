import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Db } from '../../src/db/client.js';
import { governanceAgents, governanceDelegations } from '../../src/db/schema/governance.js';
import { createAgentTerms } from '../../src/governance/agent-terms.js';
import * as repo from '../../src/governance/repo.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { useTestApp } from '../helpers/suite.js';

describe("an agent's version and the terms an instance remembers", () => {
  const { ctx } = useTestApp();

  const versionOf = async (profileId: string, agentId: string) => {
    const [row] = await ctx.app.db
      .select({ version: governanceAgents.version })
      .from(governanceAgents)
      .where(and(eq(governanceAgents.profileId, profileId), eq(governanceAgents.agentId, agentId)));
    return row!.version;
  };

  it('moves with every change to the agent or to one of its delegations, whoever makes it', async () => {
    const t = await governedTenant(ctx, 'agent-v');
    const other = await governedTenant(ctx, 'agent-w');
    // Registered at 1, then its first delegation.
    expect(await versionOf(t.profileId, 'agent-v')).toBe(2);
    await ctx.admin('POST', `/governance/delegations/${t.delegationId}/revoke`);
    expect(await versionOf(t.profileId, 'agent-v')).toBe(3);
    await ctx.app.db
      .update(governanceAgents)
      .set({ mandate: ['payments.*'] })
      .where(eq(governanceAgents.agentId, 'agent-v'));
    expect(await versionOf(t.profileId, 'agent-v')).toBe(4);
    await ctx.app.db.delete(governanceDelegations).where(eq(governanceDelegations.id, t.delegationId));
    expect(await versionOf(t.profileId, 'agent-v')).toBe(5);
    // Another profile's agent, though it has another id, was left alone.
    expect(await versionOf(other.profileId, 'agent-w')).toBe(2);
  });

  it('remembers a known agent and reads an unknown one again each time', async () => {
    const t = await governedTenant(ctx, 'agent-k');
    const terms = createAgentTerms(ctx.app.db);
    const first = await terms.read(t.profileId, 'agent-k');
    expect(first?.agent).toMatchObject({ agentId: 'agent-k', version: 2 });
    expect(await terms.read(t.profileId, 'agent-k')).toBe(first);
    expect(await terms.read(t.profileId, 'agent-late')).toBeUndefined();
    await ctx.admin('POST', '/governance/agents', {
      profileId: t.profileId,
      agentId: 'agent-late',
      mandate: ['reports.read'],
      baseline: { fingerprint: 'fp-1', maxDrift: 0.2 },
    });
    expect((await terms.read(t.profileId, 'agent-late'))?.agent.agentId).toBe('agent-late');
  });

  it('decides on the revocation that committed before, though the agent was read before it', async () => {
    const t = await governedTenant(ctx, 'agent-c');
    const decide = () => call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, { agent_id: 'agent-c' }), t.key);
    expect((await decide()).body.disposition).toBe('ALLOW');
    // A revocation made past the application (an operator's SQL) is seen as well: the trigger bumps the version.
    await ctx.app.db.execute(
      sql`update governance_delegations set revoked_at = ${ctx.clock.now().toISOString()}::timestamptz where id = ${t.delegationId}`,
    );
    const after = (await decide()).body;
    expect(after).toMatchObject({ disposition: 'DENY', inputs: { delegation: { delegation_id: t.delegationId } } });
    expect(after.inputs.delegation.revoked_at).toBe(ctx.clock.now().toISOString());
    // The copy was refreshed: the next decision is sealed from it, still denied.
    expect((await decide()).body.disposition).toBe('DENY');
  });

  it('fails a decision whose agent is gone by the time it is sealed with 404, in the governance error shape', async () => {
    const t = await governedTenant(ctx, 'agent-gone');
    const decide = () => call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, { agent_id: 'agent-gone' }), t.key);
    expect((await decide()).status).toBe(201);
    await ctx.app.db.delete(governanceDelegations).where(eq(governanceDelegations.profileId, t.profileId));
    await ctx.app.db.delete(governanceAgents).where(eq(governanceAgents.profileId, t.profileId));
    const gone = await decide();
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Agent not found' } });
    // Forgotten too: the next decision is refused before sealing, the same way.
    expect((await decide()).body.error.code).toBe('NOT_FOUND');
  });

  it.runIf(process.env.DATABASE_URL)('holds a revocation back while records read from the agent are being sealed', async () => {
    const t = await governedTenant(ctx, 'agent-l');
    let revoked = false;
    let revoke: Promise<unknown> | undefined;
    await ctx.app.db.transaction(async (tx) => {
      const terms = await repo.lockAgentTerms(tx, t.profileId, ['agent-l', 'agent-unknown']);
      expect([...terms.keys()]).toEqual(['agent-l']);
      revoke = repo.revokeDelegation(ctx.app.db, t.delegationId, ctx.clock.now()).then(() => (revoked = true));
      // The revocation's trigger waits for this transaction's share lock on the agent's row.
      await waitUntilLockWaiting(ctx.app.db);
      expect(revoked).toBe(false);
    });
    await revoke;
    expect(revoked).toBe(true);
  });
});

/** Resolves once some other session of the database waits for a lock (polled, no fixed sleep). */
async function waitUntilLockWaiting(db: Db) {
  for (;;) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (row!.n > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
