import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { useTestApp } from '../helpers/suite.js';
import { verifyInclusion } from '../../web/console/operator/log-proof.js';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/**
 * What the operator and reviewer consoles read besides the service APIs (docs/consoles.md, "Consoles"):
 * verifications found by reference, return_url on an operator's start, the customer reference in
 * the review queue, and a profile's transparency log with a record's inclusion proof.
 */
describe('console reads', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('finds a profile’s verifications by any part of their reference, in any case, with the status filter', async () => {
    for (const reference of ['Order-42', 'order-421', 'walk-in 7', '100%_sure']) {
      await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { reference }, 201);
    }
    await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, {}, 201);
    const found = async (query: string) =>
      (await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications?${query}`)).data as {
        items: { reference: string | null }[];
        total: number;
      };
    const refs = async (query: string) => (await found(query)).items.map((v) => v.reference).sort();
    expect(await refs('reference=ORDER-42')).toEqual(['Order-42', 'order-421']);
    expect((await found('reference=order-42')).total).toBe(2);
    expect(await refs('reference=walk')).toEqual(['walk-in 7']);
    // No LIKE wildcards: % and _ are the characters themselves.
    expect(await refs(`reference=${encodeURIComponent('%_')}`)).toEqual(['100%_sure']);
    expect(await refs('reference=0%25')).toEqual(['100%_sure']);
    expect(await refs(`reference=${encodeURIComponent('%')}`)).toEqual(['100%_sure']);
    expect(await refs('reference=order&status=awaiting_capture')).toEqual(['Order-42', 'order-421']);
    expect(await refs('reference=order&status=approved')).toEqual([]);
    expect(await refs('reference=nothing-like-it')).toEqual([]);
    // An empty or overlong search is refused, not read as "everything".
    await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications?reference=`, undefined, 400);
    await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications?reference=${'x'.repeat(201)}`, undefined, 400);
  });

  it('starts a verification with a return_url, checked like the API’s', async () => {
    const started = (
      await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { return_url: 'https://127.0.0.1:9/done' }, 201)
    ).data;
    expect(started.return_url).toBe('https://127.0.0.1:9/done');
    const status = (await api(ctx).status(started.handoff_token)).json();
    expect(status.return_url).toBe('https://127.0.0.1:9/done');
    const before = (await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`)).data.total;
    const refused = await ctx.admin('POST', `/profiles/${tenant.profileId}/verifications`, { return_url: 'http://shop.example.com/' }, 400);
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused)).toMatch(/return_url/);
    expect((await ctx.admin('GET', `/profiles/${tenant.profileId}/verifications`)).data.total).toBe(before);
  });

  it('shows the customer reference in the review queue', async () => {
    const { id } = await captureIntoManualReview(ctx, tenant.backend, 7711);
    const queue = (await api(ctx).call('GET', '/v1/review', tenant.reviewer, undefined, 200)).json();
    expect(queue.items.find((i: { id: string }) => i.id === id)).toMatchObject({ reference: 'order-42' });
  });

  it('answers a profile’s log checkpoint and a record with its inclusion proof, which the console’s check accepts', async () => {
    const gov = await governedTenant(ctx);
    for (let i = 0; i < 5; i++) expect((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), gov.key)).status).toBe(201);
    const log = (await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log`)).data;
    // The same answer the governance API gives its own keys.
    const own = (await call(ctx, 'GET', '/v1/governance/log', undefined, gov.key)).body;
    // ML-DSA signing is hedged (randomised): the two signatures differ, over the same body with the same key.
    const unsigned = (answer: { ml_dsa: object }) => ({ ...answer, ml_dsa: { ...answer.ml_dsa, signature: null } });
    expect(unsigned(log)).toEqual(unsigned(own));
    expect(log.tree_size).toBe(5);

    const [body] = (log.checkpoint as string).split('\n\n');
    const root = body!.split('\n')[2]!;
    for (const seq of [1, 3, 5]) {
      const answer = (await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/${seq}?tree_size=5`)).data;
      const proof = (await call(ctx, 'GET', `/v1/governance/proofs/inclusion?seq=${seq}&tree_size=5`, undefined, gov.key)).body;
      expect(answer.inclusion).toEqual(proof);
      expect(sha256(Buffer.concat([Buffer.of(0), Buffer.from(answer.leaf, 'utf8')])).toString('base64')).toBe(proof.leaf_hash);
      expect(JSON.parse(answer.leaf).seq).toBe(seq);
      expect(await verifyInclusion(answer.leaf, answer.inclusion, root)).toEqual({ ok: true, leafMatches: true, root });
    }
    // A leaf changed by one character, or another root, fails the check.
    const answer = (await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/2?tree_size=5`)).data;
    const tampered = answer.leaf.replace('"seq":2', '"seq":3');
    expect((await verifyInclusion(tampered, answer.inclusion, root)).ok).toBe(false);
    expect((await verifyInclusion(answer.leaf, answer.inclusion, Buffer.alloc(32).toString('base64'))).ok).toBe(false);

    await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/9?tree_size=5`, undefined, 404);
    await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/3?tree_size=2`, undefined, 422);
    await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/3?tree_size=9`, undefined, 422);
    await ctx.admin('GET', `/profiles/${gov.profileId}/governance/log/records/0?tree_size=5`, undefined, 400);
    await ctx.admin('GET', '/profiles/00000000-0000-4000-8000-000000000000/governance/log', undefined, 404);
  });
});
