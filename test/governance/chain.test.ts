import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { governanceRecords } from '../../src/db/schema/governance.js';
import { describe, expect, it, vi } from 'vitest';
import { createAgentTerms } from '../../src/governance/agent-terms.js';
import { createChainSealer, MAX_BATCH, type Decision } from '../../src/governance/chain.js';
import { insertAgent, insertDelegation } from '../../src/governance/repo.js';
import { evaluateGates } from '../../src/governance/policy.js';
import type { DecisionInputs, SealedRecord } from '../../src/governance/types.js';
import { canonicalJson, GENESIS_HASH } from '../../src/lib/canonical-json.js';
import { liveSigningKey } from '../../src/signing-keys/service.js';
import { createTenant } from '../helpers/tenants.js';
import { BOTH_SCOPES } from '../helpers/governance.js';
import { useTestApp } from '../helpers/suite.js';
import { rowsOf } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import type { TestContext } from '../helpers/app.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function decision(ctx: TestContext, action = 'payments.refund', agentId = 'agent-7'): Decision {
  const inputs: DecisionInputs = {
    agent_id: agentId,
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
  return { agentId, agentVersion: 1, action, inputs, gates, disposition };
}

function expectOneChain(records: SealedRecord[], from = 1) {
  expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => from + i));
  for (let i = 1; i < records.length; i++) expect(records[i]!.prev_hash).toBe(sha256(canonicalJson(records[i - 1])));
}

describe('the chain sealer (group commit)', () => {
  const { ctx } = useTestApp();

  async function sealer() {
    const signingKey = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'governance');
    const chain = createChainSealer({ db: ctx.app.db, clock: ctx.clock, signingKey, recheck: createAgentTerms(ctx.app.db).recheck });
    return { seal: async (profileId: string, d: Decision) => (await chain.seal(profileId, d)).record, link: chain.seal };
  }
  /** A governance profile with its agents registered as decision() describes them (at version 1). */
  const profile = async (agentIds = ['agent-7']) => {
    const { profileId } = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
    for (const agentId of agentIds) {
      await insertAgent(ctx.app.db, {
        profileId,
        agentId,
        mandate: ['payments.*'],
        baselineFingerprint: 'fp-1',
        baselineMaxDrift: 0.2,
        createdAt: ctx.clock.now(),
      });
    }
    return profileId;
  };
  const storedSeqs = async (profileId: string) =>
    (
      await ctx.app.db
        .select({ seq: governanceRecords.seq })
        .from(governanceRecords)
        .where(eq(governanceRecords.profileId, profileId))
        .orderBy(governanceRecords.seq)
    ).map((r) => r.seq);

  /**
   * Runs `run` with a trigger on governance_records that calls a plpgsql function of the same
   * name made of `body`; the trigger is dropped afterwards.
   */
  async function withRecordTrigger(
    name: string,
    on: { when: 'before' | 'after'; each: 'row' | 'statement' },
    body: string,
    run: () => Promise<unknown>,
  ): Promise<void> {
    await ctx.app.db.execute(sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$ begin ${body} end $$`));
    await ctx.app.db.execute(
      sql.raw(`create trigger ${name} ${on.when} insert on governance_records for each ${on.each} execute function ${name}()`),
    );
    try {
      await run();
    } finally {
      await ctx.app.db.execute(sql.raw(`drop trigger ${name} on governance_records`));
    }
  }

  /** Counts the statements that insert records while `run` runs (a statement-level trigger): one per batch written. */
  async function insertStatements(run: () => Promise<unknown>): Promise<number> {
    await ctx.app.db.execute(sql`create table if not exists test_record_inserts (at timestamptz)`);
    await ctx.app.db.execute(sql`delete from test_record_inserts`);
    await withRecordTrigger(
      'count_record_insert',
      { when: 'after', each: 'statement' },
      'insert into test_record_inserts values (now()); return null;',
      run,
    );
    const [row] = rowsOf<{ n: number }>(await ctx.app.db.execute(sql`select count(*)::int as n from test_record_inserts`));
    return row!.n;
  }

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

  it('answers each record with its canonical JSON, the text stored and hashed into the chain', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const [first, second] = [await chain.link(profileId, decision(ctx)), await chain.link(profileId, decision(ctx))];
    expect(first.canonical).toBe(canonicalJson(first.record));
    expect(second.record.prev_hash).toBe(sha256(first.canonical));
    const [stored] = await ctx.app.db
      .select({ canonical: governanceRecords.canonical })
      .from(governanceRecords)
      .where(eq(governanceRecords.recordId, second.record.record_id));
    expect(stored!.canonical).toBe(second.canonical);
  });

  it(`splits a crowd into batches of at most ${MAX_BATCH}, the chain continuing across them`, async () => {
    const chain = await sealer();
    const profileId = await profile();
    let records: SealedRecord[] = [];
    const batches = await insertStatements(async () => {
      records = await Promise.all(Array.from({ length: MAX_BATCH + 6 }, () => chain.seal(profileId, decision(ctx))));
    });
    expect(batches).toBe(2);
    expectOneChain(records);
  });

  it('writes a batch after its own last one in one statement, without a transaction', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const first = await chain.seal(profileId, decision(ctx));
    const transactions = vi.spyOn(ctx.app.db, 'transaction');
    let next: SealedRecord[] = [];
    try {
      expect(
        await insertStatements(async () => (next = await Promise.all([1, 2, 3].map(() => chain.seal(profileId, decision(ctx)))))),
      ).toBe(1);
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    expectOneChain([first, ...next]);
  });

  it('links onto the head another instance moved: the batch is sealed again under the lock, no gap, no fork', async () => {
    const [mine, theirs] = [await sealer(), await sealer()];
    const profileId = await profile();
    const records = [await mine.seal(profileId, decision(ctx))];
    records.push(...(await Promise.all([1, 2].map(() => theirs.seal(profileId, decision(ctx))))));
    // `mine` still remembers seq 1 as the head: its append finds seq 3 and writes nothing.
    const transactions = vi.spyOn(ctx.app.db, 'transaction');
    try {
      records.push(...(await Promise.all([1, 2].map(() => mine.seal(profileId, decision(ctx))))));
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      transactions.mockRestore();
    }
    records.push(await theirs.seal(profileId, decision(ctx)));
    expectOneChain(records);
    expect(await storedSeqs(profileId)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  /** Refuses, in the database, any record whose action is payments.explode, as a full disk or a lost connection would. */
  const refusingExplode = (run: () => Promise<void>) =>
    withRecordTrigger(
      'refuse_explode',
      { when: 'before', each: 'row' },
      `if new.canonical like '%"action":"payments.explode"%' then raise exception 'refused by the test'; end if; return new;`,
      run,
    );

  it('fails every decision of a batch that cannot commit, seals none of them, and goes on with the next', async () => {
    const chain = await sealer();
    const profileId = await profile();
    await refusingExplode(async () => {
      const outcomes = await Promise.allSettled([
        chain.seal(profileId, decision(ctx)),
        chain.seal(profileId, decision(ctx, 'payments.explode')),
        chain.seal(profileId, decision(ctx)),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(await storedSeqs(profileId)).toEqual([]);
    });
    const next = await chain.seal(profileId, decision(ctx));
    expect(next).toMatchObject({ seq: 1, prev_hash: GENESIS_HASH });
    expect(await storedSeqs(profileId)).toEqual([1]);
  });

  it('fails a batch written after its own last one whole too, and the next continues the chain', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const first = await chain.seal(profileId, decision(ctx));
    await refusingExplode(async () => {
      const outcomes = await Promise.allSettled([
        chain.seal(profileId, decision(ctx)),
        chain.seal(profileId, decision(ctx, 'payments.explode')),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    });
    expect(await storedSeqs(profileId)).toEqual([1]);
    const next = await chain.seal(profileId, decision(ctx));
    expectOneChain([first, next]);
  });

  it('keeps the chains of two profiles apart when their decisions arrive together', async () => {
    const chain = await sealer();
    const [a, b] = [await profile(), await profile()];
    const records = await Promise.all(Array.from({ length: 8 }, (_, i) => chain.seal(i % 2 ? b : a, decision(ctx))));
    expectOneChain(records.filter((_, i) => i % 2 === 0));
    expectOneChain(records.filter((_, i) => i % 2 === 1));
  });

  it('re-evaluates under the lock a decision whose agent changed after it was evaluated, and seals what holds now', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const first = await chain.seal(profileId, decision(ctx));
    expect(first.inputs.delegation).toBeNull();
    // Evaluated at version 1 (no delegation); a delegation arrives before it is sealed.
    const stale = decision(ctx);
    const granted = await insertDelegation(ctx.app.db, {
      profileId,
      agentId: 'agent-7',
      grantedBy: 'cfo@example.com',
      expiresAt: new Date(ctx.clock.now().getTime() + 3600_000),
      createdAt: ctx.clock.now(),
    });
    const transactions = vi.spyOn(ctx.app.db, 'transaction');
    let sealed: SealedRecord;
    try {
      sealed = await chain.seal(profileId, stale);
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      transactions.mockRestore();
    }
    expect(sealed.inputs.delegation).toMatchObject({ delegation_id: granted.id, revoked_at: null });
    expect(sealed.gates.find((g) => g.name === 'authority_continuity')?.passed).toBe(true);
    expectOneChain([first, sealed]);
  });

  it('fails with 404 only the decisions of a batch whose agent is gone; the rest are sealed', async () => {
    const chain = await sealer();
    const profileId = await profile(['agent-7', 'agent-8']);
    await ctx.app.db.execute(sql`delete from governance_agents where profile_id = ${profileId} and agent_id = 'agent-7'`);
    const outcomes = await Promise.allSettled([
      chain.seal(profileId, decision(ctx, 'payments.refund', 'agent-7')),
      chain.seal(profileId, decision(ctx, 'payments.refund', 'agent-8')),
      chain.seal(profileId, decision(ctx, 'payments.refund', 'agent-7')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((outcomes[1] as PromiseFulfilledResult<SealedRecord>).value).toMatchObject({
      agent_id: 'agent-8',
      seq: 1,
      prev_hash: GENESIS_HASH,
    });
    expect(await storedSeqs(profileId)).toEqual([1]);
  });

  /** The records stored for the profile, in seq order, as their canonical text says. */
  const storedChain = async (profileId: string) =>
    (
      await ctx.app.db
        .select({ canonical: governanceRecords.canonical })
        .from(governanceRecords)
        .where(eq(governanceRecords.profileId, profileId))
        .orderBy(governanceRecords.seq)
    ).map((r) => JSON.parse(r.canonical) as SealedRecord);
  /** What node-postgres throws when the connection ends before the answer came (a leader that died after its COMMIT). */
  const answerLost = () => new Error('Connection terminated unexpectedly');

  it('fails as unavailable a batch whose statement committed but whose answer was lost, and the next links onto what was committed', async () => {
    const chain = await sealer();
    const profileId = await profile();
    const first = await chain.seal(profileId, decision(ctx));
    // The one statement that appends a batch after this instance's own last one (it answers the
    // record ids) commits, and then its connection is lost: the sealer cannot know it committed.
    const execute = ctx.app.db.execute.bind(ctx.app.db);
    let lost = false;
    const spy = vi.spyOn(ctx.app.db, 'execute').mockImplementation(((query: Parameters<typeof execute>[0]) =>
      execute(query).then((result) => {
        if (!lost && rowsOf(result).some((row) => 'record_id' in row)) {
          lost = true;
          throw answerLost();
        }
        return result;
      })) as typeof execute);
    let outcomes: PromiseSettledResult<SealedRecord>[];
    try {
      outcomes = await Promise.allSettled([1, 2].map(() => chain.seal(profileId, decision(ctx))));
    } finally {
      spy.mockRestore();
    }
    expect(lost).toBe(true);
    // Each waiter is told unavailable (its API answers 503); what committed stays, unanswered.
    for (const o of outcomes) expect(o.status === 'rejected' && isDatabaseUnavailable(o.reason)).toBe(true);
    expect(await storedSeqs(profileId)).toEqual([1, 2, 3]);
    const next = await chain.seal(profileId, decision(ctx));
    expect(next.seq).toBe(4);
    const stored = await storedChain(profileId);
    expect(stored[0]).toEqual(first);
    expectOneChain(stored);
    expect(stored[3]).toEqual(next);
  });

  it('fails as unavailable a batch whose transaction committed but whose answer was lost, and the next links onto what was committed', async () => {
    const chain = await sealer();
    const profileId = await profile();
    // A profile's first batch is sealed in a transaction under the chain-head lock; it commits,
    // and then the answer to its COMMIT is lost.
    const transaction = ctx.app.db.transaction.bind(ctx.app.db);
    let lost = false;
    const spy = vi.spyOn(ctx.app.db, 'transaction').mockImplementation(async (run, config) => {
      const result = await transaction(run, config);
      if (!lost && typeof result === 'object' && result !== null && 'sealed' in result) {
        lost = true;
        throw answerLost();
      }
      return result;
    });
    let outcomes: PromiseSettledResult<SealedRecord>[];
    try {
      outcomes = await Promise.allSettled([1, 2, 3].map(() => chain.seal(profileId, decision(ctx))));
    } finally {
      spy.mockRestore();
    }
    expect(lost).toBe(true);
    for (const o of outcomes) expect(o.status === 'rejected' && isDatabaseUnavailable(o.reason)).toBe(true);
    expect(await storedSeqs(profileId)).toEqual([1, 2, 3]);
    // The head this instance would have remembered is unknown: the next batch reads it under the lock.
    const next = await Promise.all([1, 2].map(() => chain.seal(profileId, decision(ctx))));
    expect(next.map((r) => r.seq)).toEqual([4, 5]);
    expectOneChain(await storedChain(profileId));
  });
});
