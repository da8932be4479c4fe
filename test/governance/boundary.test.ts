import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';

describe('the execution boundary: admit once, bypass challenges, carrier', () => {
  const { ctx, tenant } = useTestApp({}, { tenant: governedTenant });

  const decide = async (overrides: Record<string, unknown> = {}, key = tenant.key) => {
    const res = await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, overrides), key);
    expect(res.status).toBe(201);
    return res.body;
  };
  const admit = (record: unknown, key = tenant.key) => call(ctx, 'POST', '/v1/governance/admit', { record }, key);
  const bypass = (kind: string, record?: unknown, key = tenant.key) =>
    call(ctx, 'POST', '/v1/challenge/bypass', record === undefined ? { kind } : { kind, record }, key);

  it('admits a fresh ALLOW record exactly once and logs every attempt on the carrier', async () => {
    const record = await decide();
    const first = await admit(record);
    expect(first).toMatchObject({
      status: 200,
      body: { admitted: true, execution_id: record.execution_id, record_id: record.record_id, admitted_at: ctx.clock.now().toISOString() },
    });
    ctx.clock.advance(1000);
    expect(await admit(record)).toMatchObject({ status: 409, body: { error: { code: 'RECEIPT_REPLAYED' } } });
    const carrier = await call(ctx, 'GET', `/v1/carrier/${record.execution_id}`, undefined, tenant.key);
    expect(carrier.status).toBe(200);
    expect(carrier.body).toEqual({
      execution_id: record.execution_id,
      record,
      deliveries: [
        { admitted_at: '2026-11-22T12:00:00.000Z', result: 'ADMITTED' },
        { admitted_at: '2026-11-22T12:00:01.000Z', result: 'RECEIPT_REPLAYED' },
      ],
    });
  });

  it('admits one of many simultaneous presentations of the same record', async () => {
    const record = await decide();
    const results = await Promise.all(Array.from({ length: 8 }, () => admit(record)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'RECEIPT_REPLAYED')).toHaveLength(7);
    const carrier = await call(ctx, 'GET', `/v1/carrier/${record.execution_id}`, undefined, tenant.key);
    expect(carrier.body.deliveries.filter((d: { result: string }) => d.result === 'ADMITTED')).toHaveLength(1);
    expect(carrier.body.deliveries).toHaveLength(8);
  });

  it('rejects each kind of bad record at admit with its stable code, in CONTRACT order', async () => {
    const deny = await decide({ consequence_tier: 'CRITICAL' });
    const escalate = await decide({ consequence_tier: 'HIGH', human_present: true });
    expect(await admit(deny)).toMatchObject({ status: 422, body: { error: { code: 'NOT_ALLOWED' } } });
    expect(await admit(escalate)).toMatchObject({ status: 422, body: { error: { code: 'NOT_ALLOWED' } } });
    expect(await admit({ ...deny, disposition: 'ALLOW' })).toMatchObject({ status: 422, body: { error: { code: 'SIGNATURE_INVALID' } } });
    const stale = await decide({ timestamp: new Date(ctx.clock.now().getTime() - 61_000).toISOString() });
    expect(await admit(stale)).toMatchObject({ status: 422, body: { error: { code: 'TIMESTAMP_OUT_OF_WINDOW' } } });
    const edge = await decide({ timestamp: new Date(ctx.clock.now().getTime() + 60_000).toISOString() });
    const expiring = await decide();
    ctx.clock.advance(300_000);
    expect(await admit(expiring)).toMatchObject({ status: 422, body: { error: { code: 'RECEIPT_EXPIRED' } } });
    // expiry is checked before the window and the disposition; a consumed nonce before everything
    expect(await admit(stale)).toMatchObject({ body: { error: { code: 'RECEIPT_EXPIRED' } } });
    ctx.clock.advance(-300_000);
    expect((await admit(edge)).status).toBe(200);
    expect(await admit({ ...edge, disposition: 'DENY' })).toMatchObject({ status: 409, body: { error: { code: 'RECEIPT_REPLAYED' } } });
    const carrier = await call(ctx, 'GET', `/v1/carrier/${deny.execution_id}`, undefined, tenant.key);
    expect(carrier.body.deliveries.map((d: { result: string }) => d.result)).toEqual(['NOT_ALLOWED', 'SIGNATURE_INVALID']);
  });

  it('refuses bodies that are not a record with 400', async () => {
    for (const body of [{}, { record: [] }, { record: 'x' }, { record: {}, extra: 1 }]) {
      expect((await call(ctx, 'POST', '/v1/governance/admit', body, tenant.key)).status).toBe(400);
    }
    expect(await admit({})).toMatchObject({ status: 422, body: { error: { code: 'SIGNATURE_INVALID' } } });
  });

  describe('bypass challenges built by the service from a fresh decision', () => {
    it.each([
      ['replayed_receipt', 'RECEIPT_REPLAYED'],
      ['modified_payload', 'SIGNATURE_INVALID'],
      ['expired_signature', 'RECEIPT_EXPIRED'],
      ['timestamp_manipulation', 'TIMESTAMP_OUT_OF_WINDOW'],
    ])('%s → %s, every time', async (kind, code) => {
      for (let i = 0; i < 3; i++) {
        const res = await bypass(kind);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ kind, rejected: true, code });
      }
    });

    it('refuses an unknown kind with 400', async () => {
      expect((await bypass('forged_key')).status).toBe(400);
    });
  });

  describe('bypass challenges with a presented record, consuming nothing', () => {
    it('rejects a replayed, modified, expired, manipulated or non-ALLOW record deterministically', async () => {
      const admitted = await decide();
      expect((await admit(admitted)).status).toBe(200);
      const fresh = await decide();
      const stale = await decide({ timestamp: new Date(ctx.clock.now().getTime() - 120_000).toISOString() });
      const deny = await decide({ action: 'hr.fire' });
      const cases: [string, unknown, string][] = [
        ['replayed_receipt', admitted, 'RECEIPT_REPLAYED'],
        ['modified_payload', { ...fresh, action: 'payments.payout' }, 'SIGNATURE_INVALID'],
        ['modified_payload', { ...deny, disposition: 'ALLOW' }, 'SIGNATURE_INVALID'],
        ['modified_payload', { ...fresh, inputs: { ...fresh.inputs, consequence_tier: 'LOW', human_present: true } }, 'SIGNATURE_INVALID'],
        ['timestamp_manipulation', stale, 'TIMESTAMP_OUT_OF_WINDOW'],
        ['timestamp_manipulation', { ...fresh, issued_at: '2026-11-22T12:30:00.000Z' }, 'SIGNATURE_INVALID'],
        ['replayed_receipt', deny, 'NOT_ALLOWED'],
      ];
      for (let round = 0; round < 2; round++) {
        for (const [kind, record, code] of cases) {
          expect((await bypass(kind, record)).body, `${kind} ${code}`).toMatchObject({ kind, rejected: true, code });
        }
      }
      ctx.clock.advance(300_000);
      expect((await bypass('expired_signature', fresh)).body).toMatchObject({ rejected: true, code: 'RECEIPT_EXPIRED' });
      ctx.clock.advance(-300_000);
      // nothing was consumed: the fresh record is still admissible, once
      expect((await bypass('replayed_receipt', fresh)).body).toMatchObject({ rejected: false, code: null });
      expect((await admit(fresh)).status).toBe(200);
      expect((await bypass('replayed_receipt', fresh)).body).toMatchObject({ rejected: true, code: 'RECEIPT_REPLAYED' });
    });
  });

  describe('tenant isolation', () => {
    it('hides records, carriers and receipts of another profile (404)', async () => {
      const record = await decide();
      const other = await governedTenant(ctx);
      expect((await call(ctx, 'GET', `/v1/carrier/${record.execution_id}`, undefined, other.key)).status).toBe(404);
      expect(await admit(record, other.key)).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
      expect((await bypass('replayed_receipt', record, other.key)).status).toBe(404);
      expect((await admit(record)).status).toBe(200);
      expect((await call(ctx, 'GET', '/v1/carrier/not-a-uuid', undefined, tenant.key)).status).toBe(404);
      expect((await call(ctx, 'GET', '/v1/carrier/00000000-0000-4000-8000-000000000000', undefined, tenant.key)).status).toBe(404);
      const theirs = await decide({}, other.key);
      expect(theirs.seq).toBe(1);
    });
  });
});
