import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { governanceRecords } from '../../src/db/schema/governance.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { useTestApp } from '../helpers/suite.js';

describe('POST /v1/crypto/verify remembers what it verified', () => {
  const { ctx, tenant } = useTestApp({}, { tenant: governedTenant });
  const verify = async (record: unknown) => (await call(ctx, 'POST', '/v1/crypto/verify', { record })).body;
  /** Removes a sealed record behind the application's back, as only a database administrator could (it is append-only). */
  async function removeRecord(recordId: string) {
    await ctx.app.db.execute(sql`alter table governance_records disable trigger governance_records_append_only`);
    try {
      await ctx.app.db.delete(governanceRecords).where(eq(governanceRecords.recordId, recordId));
    } finally {
      await ctx.app.db.execute(sql`alter table governance_records enable trigger governance_records_append_only`);
    }
  }

  it('answers a record presented again from memory, judging its freshness anew', async () => {
    const record = (await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key)).body;
    const first = await verify(record);
    expect(first).toMatchObject({ valid: true, freshness: { fresh: true }, chain: { seq: 1, recorded: true, prev_hash_matches: true } });

    // Stored records never change (the table is append-only); taking this one away all the same
    // shows that the second answer needed no lookup.
    await removeRecord(record.record_id);
    ctx.clock.advance(301_000);
    const again = await verify(record);
    expect(again).toEqual({
      ...first,
      freshness: { fresh: false, expires_at: record.expires_at, checked_at: ctx.clock.now().toISOString() },
    });
  });

  it('never answers a changed copy from memory: one byte of difference is a different record', async () => {
    const record = (await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key)).body;
    expect(await verify(record)).toMatchObject({ valid: true, chain: { recorded: true } });
    const tampered = { ...record, disposition: record.disposition === 'ALLOW' ? 'DENY' : 'ALLOW' };
    expect(await verify(tampered)).toMatchObject({ valid: false, chain: null });
    expect(await verify(tampered)).toMatchObject({ valid: false, chain: null });
  });

  it('does not remember a record that is not recorded here: once it is, the answer says so', async () => {
    const record = (await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key)).body;
    const stored = await ctx.app.db.select().from(governanceRecords).where(eq(governanceRecords.recordId, record.record_id));
    await removeRecord(record.record_id);
    expect(await verify(record)).toMatchObject({ valid: true, chain: { recorded: false } });
    await ctx.app.db.insert(governanceRecords).values(stored);
    expect(await verify(record)).toMatchObject({ valid: true, chain: { recorded: true } });
  });
});
