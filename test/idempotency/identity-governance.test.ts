import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifications } from '../../src/db/schema/identity.js';
import { idempotencyKeys } from '../../src/db/schema/idempotency.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { api, HIGH_LIMITS, identityTenant, type IdentityTenant } from '../helpers/identity.js';
import { holdKeyElsewhere, keyedCall, keyRows, newKey } from './support.js';

const MALFORMED = 'ключ';

describe('Idempotency-Key on the identity backend', () => {
  let ctx: TestContext;
  let tenant: IdentityTenant;
  let keyId: string;
  beforeAll(async () => {
    ctx = await buildTestApp({ env: HIGH_LIMITS });
    tenant = await identityTenant(ctx);
    keyId = (await ctx.app.db.query.apiKeys.findFirst({ where: (k, { eq: is }) => is(k.profileId, tenant.profileId) }))!.id;
  });
  afterAll(() => ctx?.close());

  const backend = (url: string, body: unknown, key?: string, token = tenant.backend) =>
    keyedCall(ctx, { method: 'POST', url, token, key, body });
  const verificationCount = async () =>
    (await ctx.app.db.select({ n: count() }).from(identityVerifications).where(eq(identityVerifications.profileId, tenant.profileId)))[0]!
      .n;
  const body = { webhook_url: 'https://127.0.0.1:9/hooks', reference: 'order-77' };

  /** Every byte the idempotency store holds for this test's keys, as text. */
  const storedAnswers = async () =>
    (await ctx.app.db.select({ body: idempotencyKeys.body, subject: idempotencyKeys.subject }).from(idempotencyKeys)).map((r) => ({
      body: r.body?.toString('utf8') ?? '',
      subject: r.subject,
    }));

  it('creates one verification for a retried POST /v1/verifications; the replay carries a fresh token, none is stored', async () => {
    const before = await verificationCount();
    const key = newKey();
    const first = await backend('/v1/verifications', body, key);
    expect(first.statusCode).toBe(201);
    const token = first.json().handoff_token as string;
    expect((await storedAnswers()).some((r) => r.body.includes(token))).toBe(false);
    ctx.clock.advance(60_000);
    const retry = await backend('/v1/verifications', body, key);
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([201, 'true']);
    const replayed = retry.json();
    const { handoff_token: _t, handoff_expires_at: _e, capture_url: _c, ...rest } = first.json();
    expect(replayed).toMatchObject(rest);
    expect(Object.keys(replayed)).toEqual(Object.keys(first.json()));
    expect(replayed.handoff_token).not.toBe(token);
    expect(replayed.capture_url).toBe(`${ctx.app.config.PUBLIC_URL}/capture#${replayed.handoff_token}`);
    expect(Date.parse(replayed.handoff_expires_at)).toBe(ctx.clock.now().getTime() + 30 * 60_000);
    expect(await verificationCount()).toBe(before + 1);
    // The fresh token is the live one; the first stopped working.
    expect((await api(ctx).status(replayed.handoff_token)).statusCode).toBe(200);
    expect((await api(ctx).status(token)).statusCode).toBe(401);
    expect((await storedAnswers()).some((r) => r.body.includes(replayed.handoff_token))).toBe(false);
  });

  it('answers a retried reissue with another fresh token, revoking the one the first answer gave', async () => {
    const v = await api(ctx).createVerification(tenant.backend);
    const key = newKey();
    const first = await backend(`/v1/verifications/${v.id}/handoff`, undefined, key);
    expect(first.statusCode).toBe(201);
    expect((await storedAnswers()).some((r) => r.body.includes(first.json().handoff_token))).toBe(false);
    const retry = await backend(`/v1/verifications/${v.id}/handoff`, undefined, key);
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(retry.json()).toMatchObject({ verification_id: v.id, handoff_token: expect.any(String) });
    expect(retry.json().handoff_token).not.toBe(first.json().handoff_token);
    expect(retry.json().capture_url).toBe(`${ctx.app.config.PUBLIC_URL}/capture#${retry.json().handoff_token}`);
    expect((await api(ctx).status(first.json().handoff_token)).statusCode).toBe(401);
    expect((await api(ctx).status(retry.json().handoff_token)).statusCode).toBe(200);
  });

  it('deletes a verification’s kept answers when it is erased: the reference leaves the store too', async () => {
    const key = newKey();
    const reference = `erase-me-${key}`;
    const created = (await backend('/v1/verifications', { ...body, reference }, key)).json();
    await backend(`/v1/verifications/${created.id}/handoff`, undefined, newKey());
    expect((await storedAnswers()).filter((r) => r.subject === created.id)).toHaveLength(2);
    const erased = await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/verifications/${created.id}`,
      headers: { authorization: `Bearer ${tenant.backend}` },
    });
    expect(erased.statusCode).toBe(200);
    const left = await storedAnswers();
    expect(left.filter((r) => r.subject === created.id)).toEqual([]);
    expect(left.some((r) => r.body.includes(reference))).toBe(false);
  });

  it('answers a malformed key, a reused key and a key in use as {detail}: 422, 422, 409', async () => {
    const malformed = await backend('/v1/verifications', body, MALFORMED);
    expect([malformed.statusCode, Object.keys(malformed.json())]).toEqual([422, ['detail']]);
    const key = newKey();
    await backend('/v1/verifications', body, key);
    const reused = await backend('/v1/verifications', { ...body, reference: 'order-78' }, key);
    expect([reused.statusCode, Object.keys(reused.json())]).toEqual([422, ['detail']]);
    expect(reused.json().detail).toMatch(/Idempotency-Key was already used with another request body/);
    const busy = newKey();
    await holdKeyElsewhere(ctx, { caller: `key:${keyId}`, method: 'POST', path: '/v1/verifications', key: busy }, body);
    const inUse = await backend('/v1/verifications', body, busy);
    expect([inUse.statusCode, Object.keys(inUse.json())]).toEqual([409, ['detail']]);
  });

  it('keeps a refused webhook_url (422) but not a reviewer key’s 403', async () => {
    const key = newKey();
    const refused = await backend('/v1/verifications', { webhook_url: 'http://plain.example.com/hook' }, key);
    expect(refused.statusCode).toBe(422);
    const again = await backend('/v1/verifications', { webhook_url: 'http://plain.example.com/hook' }, key);
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([422, 'true']);
    const forbidden = newKey();
    expect((await backend('/v1/verifications', body, forbidden, tenant.reviewer)).statusCode).toBe(403);
    expect(await keyRows(ctx, forbidden)).toEqual([]);
  });

  it('ignores the key on the capture endpoints (the device’s own calls)', async () => {
    const v = await api(ctx).createVerification(tenant.backend);
    const key = newKey();
    // Before the document the challenge answers 409, a 4xx a key would keep: it is not kept here.
    for (let i = 0; i < 2; i++) {
      const res = await keyedCall(ctx, { method: 'POST', url: '/v1/capture/challenge', token: v.handoff_token, key });
      expect(res.statusCode).toBe(409);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await keyRows(ctx, key)).toEqual([]);
  });
});

describe('Idempotency-Key on governance decisions', () => {
  let ctx: TestContext;
  let tenant: Awaited<ReturnType<typeof governedTenant>>;
  beforeAll(async () => {
    ctx = await buildTestApp();
    tenant = await governedTenant(ctx);
  });
  afterAll(() => ctx?.close());

  const decide = (body: unknown, key?: string) =>
    keyedCall(ctx, { method: 'POST', url: '/v1/governance/decisions', token: tenant.key, key, body });
  const records = async () => (await call(ctx, 'GET', '/v1/governance/records?after_seq=0&limit=1000', undefined, tenant.key)).body.records;

  it('returns the record sealed the first time for a retried decision, and seals no second one', async () => {
    const before = (await records()).length;
    const key = newKey();
    const decision = goodDecision(ctx);
    const first = await decide(decision, key);
    expect(first.statusCode).toBe(201);
    ctx.clock.advance(1_000);
    const retry = await decide(decision, key);
    expect([retry.statusCode, retry.headers['idempotent-replayed'], retry.body]).toEqual([201, 'true', first.body]);
    const chain = await records();
    expect(chain).toHaveLength(before + 1);
    expect(chain.at(-1)).toEqual(first.json());
  });

  it('answers a malformed key, a reused key and a key in use as {error:{code,message}}', async () => {
    const malformed = await decide(goodDecision(ctx), '');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('Idempotency-Key') } });
    const key = newKey();
    await decide(goodDecision(ctx), key);
    const reused = await decide(goodDecision(ctx, { action: 'reports.read' }), key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) } });
    const busy = newKey();
    const decision = goodDecision(ctx);
    await holdKeyElsewhere(ctx, { caller: `key:${tenant.keyId}`, method: 'POST', path: '/v1/governance/decisions', key: busy }, decision);
    const inUse = await decide(decision, busy);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({ error: { code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.any(String) } });
  });

  it('leaves the execution boundary alone: admitting twice with one key still answers RECEIPT_REPLAYED', async () => {
    const record = (await decide(goodDecision(ctx))).json();
    const key = newKey();
    const admit = () => keyedCall(ctx, { method: 'POST', url: '/v1/governance/admit', token: tenant.key, key, body: { record } });
    expect((await admit()).statusCode).toBe(200);
    const second = await admit();
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('RECEIPT_REPLAYED');
    expect(await keyRows(ctx, key)).toEqual([]);
  });
});
