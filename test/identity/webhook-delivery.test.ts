import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { useCertificate, useReceiver } from '../helpers/receivers.js';
import { api, HIGH_LIMITS, identityTenant, multipart, passportMrz, type Part } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

const NOTE = 'Checked by hand: the holder matches the document.';

describe('identity decision webhooks reach a real HTTPS receiver, Standard Webhooks signed with Ed25519', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx, tenant } = useTestApp(
    () => ({ env: { ...HIGH_LIMITS, WEBHOOK_RETRY_DELAYS_MS: '1000,2000' }, webhooks: { ca: cert.cert } }),
    { tenant: identityTenant },
  );

  /** The device's side: document (with `mrz` when given) and every challenge step. */
  async function carry(v: { handoff_token: string }, mrz?: string) {
    const send = async (path: string, parts: Part[]) => {
      const form = multipart(parts);
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/v1/capture/${path}`,
        headers: { ...form.headers, authorization: `Bearer ${v.handoff_token}` },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    const salt = Math.floor(Math.random() * 1e6);
    await send('document', [
      { name: 'file', filename: 'd.png', data: png(640, 480, { seed: salt }) },
      ...(mrz ? [{ name: 'mrz', value: mrz }] : []),
    ]);
    for (const { step } of (await api(ctx).challenge(v.handoff_token)).json().steps) {
      await send('selfie', [
        { name: 'step', value: String(step) },
        { name: 'file', filename: 's.png', data: png(640, 480, { seed: salt + step + 1 }) },
      ]);
    }
  }

  /** Delivers what is due, moving the clock past the retry delays. */
  async function deliver() {
    for (let i = 0; i < 4; i++) {
      await ctx.app.jobs.drain();
      ctx.clock.advance(2_500);
    }
  }

  it('sends approved and declined decisions, each verifiable with the identity-webhook key of the JWKS, through one refused attempt', async () => {
    const a = api(ctx);
    const jwks = (await a.call('GET', '/v1/.well-known/jwks.json', null, undefined, 200)).json();
    const jwk = jwks.keys.find((k: { purpose: string }) => k.purpose === 'identity-webhook');
    const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });

    const create = (reference: string) =>
      a.createVerification(tenant.backend, { webhook_url: receiver.url(`/idv/${reference}`), reference });
    const approved = await create('ref-approved');
    const declined = await create('ref-declined');
    receiver.plan(503);
    await carry(approved, passportMrz());
    await carry(declined, passportMrz({ breakCheckDigit: true }));
    await deliver();

    const got = receiver.received.filter((r) => r.path.startsWith('/idv/'));
    const byPath = new Map<string, typeof got>();
    for (const r of got) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    expect([...byPath.keys()].sort()).toEqual(['/idv/ref-approved', '/idv/ref-declined']);

    for (const r of got) {
      const id = r.headers['webhook-id'] as string;
      const timestamp = r.headers['webhook-timestamp'] as string;
      const signature = r.headers['webhook-signature'] as string;
      expect(signature).toMatch(/^v1a,[A-Za-z0-9+/]+=*$/);
      const valid = verify(null, Buffer.from(`${id}.${timestamp}.${r.body}`), publicKey, Buffer.from(signature.slice(4), 'base64'));
      expect(valid).toBe(true);
      expect(verify(null, Buffer.from(`${id}.${timestamp}.${r.body} `), publicKey, Buffer.from(signature.slice(4), 'base64'))).toBe(false);
      const body = JSON.parse(r.body);
      expect(body.id).toBe(id);
      expect(Object.keys(body).sort()).toEqual(['created', 'data', 'id', 'type']);
      expect(Object.keys(body.data).sort()).toEqual(['profile_id', 'reference', 'status', 'verification_id']);
    }
    const last = (path: string) => JSON.parse(byPath.get(path)!.at(-1)!.body);
    expect(last('/idv/ref-approved')).toMatchObject({
      type: 'verification.approved',
      data: { verification_id: approved.id, status: 'approved', reference: 'ref-approved', profile_id: tenant.profileId },
    });
    expect(last('/idv/ref-declined')).toMatchObject({
      type: 'verification.declined',
      data: { verification_id: declined.id, status: 'declined', reference: 'ref-declined' },
    });
    // The refused first attempt was retried with the same event id.
    const retried = [...byPath.values()].find((list) => list.length === 2)!;
    expect(retried[0]!.headers['webhook-id']).toBe(retried[1]!.headers['webhook-id']);
  });

  it('sends manual_review and then the reviewer’s decision', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend, { webhook_url: receiver.url('/idv/review'), reference: 'ref-review' });
    await ctx.admin('POST', `/identity/verifications/${v.id}/fail-next-run`);
    await carry(v);
    await deliver();
    await a.call('POST', `/v1/review/${v.id}`, tenant.reviewer, { decision: 'decline', note: NOTE }, 200);
    await deliver();
    const types = receiver.received.filter((r) => r.path === '/idv/review').map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(['verification.manual_review', 'verification.declined']);
  });

  it('names the profile in every decision: a receiver tells another tenant’s verification of its own customer apart', async () => {
    // Tenant A points its verification at B's receiver with the reference of one of B's customers.
    const a = api(ctx);
    const tenantA = await identityTenant(ctx);
    const forged = await a.createVerification(tenantA.backend, { webhook_url: receiver.url('/idv/tenant-b'), reference: 'b-customer-7' });
    await carry(forged, passportMrz());
    await deliver();
    const got = receiver.received.filter((r) => r.path === '/idv/tenant-b').map((r) => JSON.parse(r.body));
    expect(got.at(-1)).toMatchObject({ type: 'verification.approved', data: { reference: 'b-customer-7' } });
    // The signed body says whose verification it is: B's receiver compares it with its own profile id and drops it.
    expect(got.at(-1).data.profile_id).toBe(tenantA.profileId);
    expect(got.at(-1).data.profile_id).not.toBe(tenant.profileId);
  });
});
