import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { governanceRecords } from '../../src/db/schema/governance.js';
import { describe, expect, it, vi } from 'vitest';
import { createChainSealer, MAX_BATCH, type Decision } from '../../src/governance/chain.js';
import { evaluateGates } from '../../src/governance/policy.js';
import type { DecisionInputs, SealedRecord } from '../../src/governance/types.js';
import { canonicalJson, GENESIS_HASH } from '../../src/lib/canonical-json.js';
import { liveSigningKey } from '../../src/signing-keys/service.js';
import { createTenant } from '../helpers/tenants.js';
import { BOTH_SCOPES } from '../helpers/governance.js';
import { useTestApp } from '../helpers/suite.js';
import type { TestContext } from '../helpers/app.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function decision(ctx: TestContext, action = 'payments.refund'): Decision {
  const inputs: DecisionInputs = {
    agent_id: 'agent-7',
    action,
    authority_status: 'VALID',
    human_present: false,
    consequence_tier: 'LOW',
    timestamp: ctx.clock.now().toISOString(),
    behavior: null,
    mandate: ['payments.*'],
    baseline: { fingerprint: 'fp-1', max_drift: 0.2 },
    delegation: null,
  };
  const { gates, disposition } = evaluateGates(inputs);
  return { agentId: 'agent-7', action, inputs, gates, disposition };
}

function expectOneChain(records: SealedRecord[], from = 1) {
  expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => from + i));
  for (let i = 1; i < records.length; i++) expect(records[i]!.prev_hash).toBe(sha256(canonicalJson(records[i - 1])));
}

describe('the chain sealer (group commit)', () => {
  const { ctx } = useTestApp();

  async function sealer() {
    const signingKey = await liveSigningKey(ctx.app.db, ctx.clock, 'governance');
    return createChainSealer({ db: ctx.app.db, clock: ctx.clock, signingKey });
  }
  const profile = async () => (await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES })).profileId;
  const storedSeqs = async (profileId: string) =>
    (
      await ctx.app.db
        .select({ seq: governanceRecords.seq })
        .from(governanceRecords)
        .where(eq(governanceRecords.profileId, profileId))
        .orderBy(governanceRecords.seq)
    ).map((r) => r.seq);

  it('seals decisions that arrive together in one transaction, as consecutive links of one chain', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const transactions = vi.spyOn(ctx.app.db, 'transaction');
    try {
      const records = await Promise.all(Array.from({ length: 10 }, () => chain.seal(profileId, decision(ctx))));
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(records[0]!.prev_hash).toBe(GENESIS_HASH);
      expectOneChain(records);
    } finally {
      transactions.mockRestore();
    }
    expect(await storedSeqs(profileId)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it(`splits a crowd into batches of at most ${MAX_BATCH}, the chain continuing across them`, async () => {
    const chain = await sealer();
    const profileId = await profile();
    const transactions = vi.spyOn(ctx.app.db, 'transaction');
    try {
      const records = await Promise.all(Array.from({ length: MAX_BATCH + 6 }, () => chain.seal(profileId, decision(ctx))));
      expect(transactions).toHaveBeenCalledTimes(2);
      expectOneChain(records);
    } finally {
      transactions.mockRestore();
    }
  });

  it('fails every decision of a batch that cannot commit, seals none of them, and goes on with the next', async () => {
    const chain = await sealer();
    const profileId = await profile();
    // A database-level refusal of one record of the batch, as a full disk or a lost connection would be.
    await ctx.app.db.execute(sql`
      create or replace function refuse_explode() returns trigger language plpgsql as $$
      begin
        if new.canonical like '%"action":"payments.explode"%' then
          raise exception 'refused by the test';
        end if;
        return new;
      end $$`);
    await ctx.app.db.execute(sql`
      create trigger refuse_explode before insert on governance_records for each row execute function refuse_explode()`);
    try {
      const outcomes = await Promise.allSettled([
        chain.seal(profileId, decision(ctx)),
        chain.seal(profileId, decision(ctx, 'payments.explode')),
        chain.seal(profileId, decision(ctx)),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(await storedSeqs(profileId)).toEqual([]);
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_explode on governance_records`);
    }
    const next = await chain.seal(profileId, decision(ctx));
    expect(next).toMatchObject({ seq: 1, prev_hash: GENESIS_HASH });
    expect(await storedSeqs(profileId)).toEqual([1]);
  });

  it('keeps the chains of two profiles apart when their decisions arrive together', async () => {
    const chain = await sealer();
    const [a, b] = [await profile(), await profile()];
    const records = await Promise.all(Array.from({ length: 8 }, (_, i) => chain.seal(i % 2 ? b : a, decision(ctx))));
    expectOneChain(records.filter((_, i) => i % 2 === 0));
    expectOneChain(records.filter((_, i) => i % 2 === 1));
  });
});
