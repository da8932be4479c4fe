import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { PIPELINE_QUEUE } from '../../src/identity/capture/service.js';
import { buildTestApp, usingPostgres, type TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, HIGH_LIMITS, identityTenant, multipart, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

const NOTE = 'Pipeline fault checked by hand; documents are fine.';

async function auditTypes(ctx: TestContext, id: string): Promise<string[]> {
  return rowsOf<{ type: string }>(
    await ctx.app.db.execute(sql`select type from identity_audit_events where verification_id = ${id} order by seq`),
  ).map((r) => r.type);
}

async function outbox(ctx: TestContext, id: string) {
  return rowsOf<{ type: string; body: any; payload: string; target_url: string; signer: string; policy: string }>(
    await ctx.app.db.execute(
      sql`select type, body, payload, target_url, signer, policy from webhook_events where body->'data'->>'verification_id' = ${id} order by created_at`,
    ),
  );
}

describe('identity pipeline: faults go to manual review, jobs survive crashes', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('routes an operator-injected fault to manual_review with verification.pipeline_error, consuming the fault', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend);
    const injected = await ctx.admin('POST', `/identity/verifications/${v.id}/fail-next-run`);
    expect(injected).toEqual({ success: true, data: { verification_id: v.id, fail_next_run: true } });
    const flag = async () =>
      rowsOf<{ fail_next_run: boolean }>(
        await ctx.app.db.execute(sql`select fail_next_run from identity_verifications where id = ${v.id}`),
      )[0]!.fail_next_run;
    expect(await flag()).toBe(true);

    // Carry this verification through capture with its own token.
    const up = async (path: 'document' | 'selfie', parts: Parameters<typeof multipart>[0]) => {
      const form = multipart(parts);
      return ctx.app.inject({
        method: 'POST',
        url: `/v1/capture/${path}`,
        headers: { ...form.headers, authorization: `Bearer ${v.handoff_token}` },
        payload: form.payload,
      });
    };
    expect((await up('document', [{ name: 'file', filename: 'd.png', data: png(640, 480, { seed: 90001 }) }])).statusCode).toBe(201);
    const challenge = (await a.challenge(v.handoff_token)).json();
    for (const { step } of challenge.steps) {
      expect(
        (
          await up('selfie', [
            { name: 'step', value: String(step) },
            { name: 'file', filename: 's.png', data: png(640, 480, { seed: 90010 + step }) },
          ])
        ).statusCode,
      ).toBe(201);
    }
    const decided = await settle(ctx, tenant.backend, v.id);
    expect(decided).toMatchObject({ status: 'manual_review', decision_reason: 'pipeline_error' });
    const types = await auditTypes(ctx, v.id);
    expect(types).toContain('operator.fault_injected');
    expect(types.slice(-2)).toEqual(['verification.pipeline_error', 'verification.manual_review']);
    expect(await flag()).toBe(false);
    // The job itself finished: nothing is left to retry.
    expect(
      rowsOf(
        await ctx.app.db.execute(sql`select state from jobs where queue = ${PIPELINE_QUEUE} and payload->>'verificationId' = ${v.id}`),
      ),
    ).toEqual([{ state: 'done' }]);
    // The decision webhook for manual_review was written in the same transaction.
    const events = await outbox(ctx, v.id);
    expect(events.map((e) => e.type)).toEqual(['verification.manual_review']);
    // A reviewer can then decide it.
    await a.call('POST', `/v1/review/${v.id}`, tenant.reviewer, { decision: 'approve', note: NOTE }, 200);
    expect((await outbox(ctx, v.id)).map((e) => e.type)).toEqual(['verification.manual_review', 'verification.approved']);
  });

  it('routes any thrown error (unreadable stored data) to manual_review too', async () => {
    const v = await captureAll(ctx, tenant.backend);
    // Corrupt the stored MRZ so the MRZ parser throws inside the pipeline.
    await ctx.app.db.execute(sql`update identity_verifications set mrz = 'GARBAGE!' where id = ${v.id}`);
    expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'manual_review', decision_reason: 'pipeline_error' });
    expect((await auditTypes(ctx, v.id)).includes('verification.pipeline_error')).toBe(true);
  });

  it('answers 404 in the operator envelope for an unknown verification', async () => {
    await ctx.admin('POST', '/identity/verifications/00000000-0000-4000-8000-000000000000/fail-next-run', undefined, 404);
    await ctx.admin('POST', '/identity/verifications/nope/fail-next-run', undefined, 404);
  });

  it('writes the decision webhook with exactly the contract body, no other personal data', async () => {
    const v = await captureAll(ctx, tenant.backend);
    await settle(ctx, tenant.backend, v.id);
    const [event] = await outbox(ctx, v.id);
    expect(event).toMatchObject({
      type: 'verification.approved',
      target_url: 'https://127.0.0.1:9/hooks',
      signer: 'identity-ed25519',
      policy: 'identity',
    });
    expect(event!.body).toEqual({
      id: expect.any(String),
      type: 'verification.approved',
      created: ctx.clock.now().toISOString(),
      data: { verification_id: v.id, status: 'approved', reference: 'order-42', profile_id: tenant.profileId },
    });
    expect(JSON.parse(event!.payload)).toEqual(event!.body);
  });

  it('runs a job again after its worker died mid-run (lease ran out), deciding exactly once', async () => {
    const v = await captureAll(ctx, tenant.backend);
    // A worker claimed the job and died (kill -9): the row stays "running" under its lease.
    const lease = new Date(ctx.clock.now().getTime() + 60_000).toISOString();
    await ctx.app.db.execute(
      sql`update jobs set state = 'running', attempts = 1, locked_until = ${lease} where queue = ${PIPELINE_QUEUE} and payload->>'verificationId' = ${v.id}`,
    );
    await ctx.app.jobs.drain();
    expect((await api(ctx).call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().status).toBe('processing');
    ctx.clock.advance(60_001);
    expect((await settle(ctx, tenant.backend, v.id)).status).toBe('approved');
    // A duplicate run (e.g. a lease that expired while the first run was finishing) changes nothing.
    await ctx.app.jobs.enqueue(PIPELINE_QUEUE, { verificationId: v.id });
    const before = await auditTypes(ctx, v.id);
    await ctx.app.jobs.drain();
    expect(await auditTypes(ctx, v.id)).toEqual(before);
    expect((await outbox(ctx, v.id)).map((e) => e.type)).toEqual(['verification.approved']);
  });
});

describe.skipIf(!usingPostgres())('identity pipeline across a restart (PostgreSQL)', () => {
  const { ctx: first, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  let second: TestContext | undefined;
  afterAll(async () => {
    await second?.app.close();
  });

  it('a verification whose process died before or during its pipeline run is decided by the next process', async () => {
    const queued = await captureAll(first, tenant.backend);
    const midRun = await captureAll(first, tenant.backend, { mrz: null });
    const lease = new Date(first.clock.now().getTime() + 60_000).toISOString();
    await first.app.db.execute(
      sql`update jobs set state = 'running', attempts = 1, locked_until = ${lease} where queue = ${PIPELINE_QUEUE} and payload->>'verificationId' = ${midRun.id}`,
    );
    // The first process goes away without running anything.
    await first.app.close();
    second = await buildTestApp({ shareWith: first, clock: first.clock });
    expect(await settle(second, tenant.backend, queued.id)).toMatchObject({ status: 'approved' });
    expect((await api(second).call('GET', `/v1/verifications/${midRun.id}`, tenant.backend, undefined, 200)).json().status).toBe(
      'processing',
    );
    second.clock.advance(60_001);
    expect(await settle(second, tenant.backend, midRun.id)).toMatchObject({ status: 'approved' });
  });
});
