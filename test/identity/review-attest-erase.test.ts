import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { verifyAuditChain } from '../../src/identity/audit.js';
import { useTestApp } from '../helpers/suite.js';
import {
  api,
  captureAll,
  captureIntoManualReview,
  HIGH_LIMITS,
  identityTenant,
  passportMrz,
  settle,
  zoneReadFromImage,
} from '../helpers/identity.js';

const NOTE = 'Document matches the selfie; checked the hologram by hand.';

describe('identity review, attestations, erasure and the audit chain', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  const inManualReview = async (seed: number) => (await captureIntoManualReview(ctx, tenant.backend, seed)).id;

  describe('review', () => {
    it('lists the open queue of the reviewer’s profile only', async () => {
      const id = await inManualReview(1001);
      const queue = (await api(ctx).call('GET', '/v1/review', tenant.reviewer, undefined, 200)).json();
      expect(queue.items).toContainEqual(expect.objectContaining({ id, status: 'manual_review', reason: 'document_reused' }));
      const other = await identityTenant(ctx);
      expect((await api(ctx).call('GET', '/v1/review', other.reviewer, undefined, 200)).json().items).toEqual([]);
    });

    it('needs a decision value and a note of at least 20 characters after trimming (422)', async () => {
      const id = await inManualReview(1002);
      const a = api(ctx);
      for (const body of [
        { decision: 'approve' },
        { decision: 'approve', note: '' },
        { decision: 'approve', note: 'too short' },
        { decision: 'approve', note: `   ${'x'.repeat(19)}          ` },
        { decision: 'maybe', note: NOTE },
        { note: NOTE },
        { decision: 'approve', note: 42 },
      ]) {
        const res = await a.call('POST', `/v1/review/${id}`, tenant.reviewer, body, 422);
        expect(Object.keys(res.json())).toEqual(['detail']);
      }
      expect((await a.call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status).toBe('manual_review');
      const ok = await a.call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'decline', note: `  ${'y'.repeat(20)}  ` }, 200);
      expect(ok.json().verification).toMatchObject({ id, status: 'declined' });
    });

    it('lets exactly one of two racing decisions win; the other and every later one get 409', async () => {
      const id = await inManualReview(1003);
      const a = api(ctx);
      const [x, y] = await Promise.all([
        a.call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'approve', note: NOTE }),
        a.call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'decline', note: NOTE }),
      ]);
      expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
      const winner = x.statusCode === 200 ? 'approved' : 'declined';
      expect((await a.call('GET', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json().status).toBe(winner);
      expect(
        Object.keys((await a.call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'approve', note: NOTE }, 409)).json()),
      ).toEqual(['detail']);
      const reviews = rowsOf(await ctx.app.db.execute(sql`select decision from identity_reviews where verification_id = ${id}`));
      expect(reviews).toHaveLength(1);
    });

    it('refuses to review an awaiting or approved verification with 409', async () => {
      const a = api(ctx);
      const waiting = await a.createVerification(tenant.backend);
      await a.call('POST', `/v1/review/${waiting.id}`, tenant.reviewer, { decision: 'approve', note: NOTE }, 409);
      const approved = await captureAll(ctx, tenant.backend);
      await settle(ctx, tenant.backend, approved.id);
      await a.call('POST', `/v1/review/${approved.id}`, tenant.reviewer, { decision: 'decline', note: NOTE }, 409);
    });
  });

  describe('attestations', () => {
    it('publishes the claim catalogue', async () => {
      const res = (await api(ctx).call('GET', '/v1/attestations/claims', null, undefined, 200)).json();
      expect(res.claims.map((c: { name: string }) => c.name)).toEqual([
        'identity_verified',
        'age_over_18',
        'age_over_21',
        'document_unexpired',
        'nationality',
      ]);
    });

    it('signs each claim of an approved verification as an EdDSA JWS verifiable with the JWKS', async () => {
      const a = api(ctx);
      // Born 2006-01-15: 20 years old on 2026-11-22.
      const v = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ birth: '060115', nationality: 'NLD', expiry: '310101' }) });
      expect((await settle(ctx, tenant.backend, v.id)).status).toBe('approved');
      await zoneReadFromImage(ctx, v.id);
      const jwks = (await a.call('GET', '/v1/.well-known/jwks.json', null, undefined, 200)).json();
      expect(jwks.keys.map((k: { purpose: string }) => k.purpose).sort()).toEqual(['attestation', 'identity-webhook']);
      for (const k of jwks.keys)
        expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', kid: expect.stringMatching(/^[0-9a-f]{16}$/) });
      const keySet = createLocalJWKSet(jwks);
      const expected = { identity_verified: true, age_over_18: true, age_over_21: false, document_unexpired: true, nationality: 'NLD' };
      for (const [claim, value] of Object.entries(expected)) {
        const res = await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim }, 201);
        const att = res.json();
        expect(att).toEqual({
          id: expect.any(String),
          claim,
          value,
          verification_id: v.id,
          issued_at: ctx.clock.now().toISOString(),
          jws: expect.any(String),
        });
        const header = decodeProtectedHeader(att.jws);
        expect(header).toMatchObject({ alg: 'EdDSA', kid: jwks.keys.find((k: { purpose: string }) => k.purpose === 'attestation').kid });
        const { payload } = await jwtVerify(att.jws, keySet, {
          currentDate: ctx.clock.now(),
          issuer: `${ctx.app.config.PUBLIC_URL}/v1`,
          audience: tenant.profileId,
        });
        expect(payload).toMatchObject({
          sub: v.id,
          iss: `${ctx.app.config.PUBLIC_URL}/v1`,
          aud: tenant.profileId,
          jti: att.id,
          claim,
          value,
          [claim]: value,
          iat: Math.floor(ctx.clock.now().getTime() / 1000),
        });
        expect(payload.exp).toBeGreaterThan(payload.iat!);
      }
      // A relying party of another profile refuses it: the audience is the issuing profile.
      const other = await identityTenant(ctx);
      const any = (await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'identity_verified' }, 201)).json();
      await expect(jwtVerify(any.jws, keySet, { currentDate: ctx.clock.now(), audience: other.profileId })).rejects.toThrow(/aud/);
      // A tampered token does not verify.
      const att = (await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'age_over_21' }, 201)).json();
      const [h, p, s] = att.jws.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), value: true })).toString(
        'base64url',
      );
      await expect(jwtVerify(`${h}.${forged}.${s}`, keySet, { currentDate: ctx.clock.now() })).rejects.toThrow();
    });

    it('keeps verifying attestations signed before a key rotation: retired keys stay in the JWKS', async () => {
      const a = api(ctx);
      const v = await captureAll(ctx, tenant.backend);
      await settle(ctx, tenant.backend, v.id);
      const before = (await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'identity_verified' }, 201)).json();
      // Rotation: the live key is retired; the next attestation makes and uses a new one.
      await ctx.app.db.execute(
        sql`update signing_keys set retired_at = ${ctx.clock.now().toISOString()} where purpose = 'attestation' and retired_at is null`,
      );
      const after = (await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'identity_verified' }, 201)).json();
      expect(decodeProtectedHeader(after.jws).kid).not.toBe(decodeProtectedHeader(before.jws).kid);
      const jwks = (await a.call('GET', '/v1/.well-known/jwks.json', null, undefined, 200)).json();
      expect(jwks.keys.filter((k: { purpose: string }) => k.purpose === 'attestation')).toHaveLength(2);
      const keySet = createLocalJWKSet(jwks);
      for (const att of [before, after])
        expect((await jwtVerify(att.jws, keySet, { currentDate: ctx.clock.now() })).payload.sub).toBe(v.id);
    });

    it('answers 422 to an unknown claim, 409 when not approved or when the data cannot support the claim', async () => {
      const a = api(ctx);
      const approvedNoMrz = await captureAll(ctx, tenant.backend, { mrz: null });
      await settle(ctx, tenant.backend, approvedNoMrz.id);
      for (const claim of ['favourite_colour', '', 42]) {
        expect(Object.keys((await a.call('POST', `/v1/attestations/${approvedNoMrz.id}`, tenant.backend, { claim }, 422)).json())).toEqual([
          'detail',
        ]);
      }
      await a.call('POST', `/v1/attestations/${approvedNoMrz.id}`, tenant.backend, { claim: 'identity_verified' }, 201);
      for (const claim of ['age_over_18', 'age_over_21', 'document_unexpired', 'nationality']) {
        await a.call('POST', `/v1/attestations/${approvedNoMrz.id}`, tenant.backend, { claim }, 409);
      }
      // A zone only the device typed supports no claim about the holder.
      const typedOnly = await captureAll(ctx, tenant.backend, { mrz: passportMrz() });
      expect(await settle(ctx, tenant.backend, typedOnly.id)).toMatchObject({ status: 'approved', document: { mrz_source: 'typed' } });
      await a.call('POST', `/v1/attestations/${typedOnly.id}`, tenant.backend, { claim: 'identity_verified' }, 201);
      for (const claim of ['age_over_18', 'age_over_21', 'document_unexpired', 'nationality']) {
        const res = await a.call('POST', `/v1/attestations/${typedOnly.id}`, tenant.backend, { claim }, 409);
        expect(res.json().detail).toContain('read from the document');
      }
      const waiting = await a.createVerification(tenant.backend);
      await a.call('POST', `/v1/attestations/${waiting.id}`, tenant.backend, { claim: 'identity_verified' }, 409);
      const declined = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ breakCheckDigit: true }) });
      await settle(ctx, tenant.backend, declined.id);
      await a.call('POST', `/v1/attestations/${declined.id}`, tenant.backend, { claim: 'identity_verified' }, 409);
    });
  });

  describe('erasure', () => {
    it('deletes the files, nulls every personal field, revokes token and attestations, and answers forever', async () => {
      const a = api(ctx);
      const v = await captureAll(ctx, tenant.backend, { mrz: passportMrz({ number: 'ERASE0001' }) });
      const reviewed = await inManualReview(1004);
      await settle(ctx, tenant.backend, v.id);
      await zoneReadFromImage(ctx, v.id);
      await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'nationality' }, 201);
      await a.call(
        'POST',
        `/v1/review/${reviewed}`,
        tenant.reviewer,
        { decision: 'approve', note: 'A PERSONAL NOTE about the holder face' },
        200,
      );
      const blobDir = join(ctx.env.DATA_DIR!, 'blobs', 'identity');
      expect(readdirSync(join(blobDir, v.id)).length).toBeGreaterThan(3);

      for (const id of [v.id, reviewed]) {
        const erased = (await a.call('DELETE', `/v1/verifications/${id}`, tenant.backend, undefined, 200)).json();
        expect(erased).toEqual({ id, status: 'approved', erased: true, erased_at: ctx.clock.now().toISOString() });
        expect(readdirSync(join(blobDir, id))).toEqual([]);
      }
      ctx.clock.advance(3600_000);
      expect((await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json()).toEqual({
        id: v.id,
        status: 'approved',
        erased: true,
        erased_at: new Date(ctx.clock.now().getTime() - 3600_000).toISOString(),
      });
      expect((await a.call('DELETE', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().erased).toBe(true);
      expect((await a.status(v.token)).statusCode).toBe(401);
      await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'identity_verified' }, 409);
      await a.call('POST', `/v1/verifications/${v.id}/handoff`, tenant.backend, undefined, 409);

      // Nothing personal is left anywhere in the database.
      const [row] = rowsOf(await ctx.app.db.execute(sql`select * from identity_verifications where id = ${v.id}`));
      for (const col of ['reference', 'webhook_url', 'mrz', 'document_blob', 'document_sha256', 'challenge'])
        expect(row![col], col).toBeNull();
      expect(rowsOf(await ctx.app.db.execute(sql`select * from identity_frames where verification_id in (${v.id}, ${reviewed})`))).toEqual(
        [],
      );
      expect(
        rowsOf(await ctx.app.db.execute(sql`select * from identity_handoff_tokens where verification_id = ${v.id} and revoked_at is null`)),
      ).toEqual([]);
      expect(
        rowsOf(
          await ctx.app.db.execute(
            sql`select * from identity_attestations where verification_id = ${v.id} and (revoked_at is null or value is not null)`,
          ),
        ),
      ).toEqual([]);
      expect(
        rowsOf(await ctx.app.db.execute(sql`select * from identity_reviews where verification_id = ${reviewed} and note is not null`)),
      ).toEqual([]);
      const ids = sql.join([sql`${v.id}`, sql`${reviewed}`], sql`, `);
      const dump = JSON.stringify([
        rowsOf(await ctx.app.db.execute(sql`select * from identity_verifications where id in (${ids})`)),
        ...(await Promise.all(
          ['identity_frames', 'identity_reviews', 'identity_attestations', 'identity_audit_events', 'identity_handoff_tokens'].map(
            async (t) => rowsOf(await ctx.app.db.execute(sql`select * from ${sql.identifier(t)} where verification_id in (${ids})`)),
          ),
        )),
        rowsOf(await ctx.app.db.execute(sql`select body, payload from webhook_events where body->'data'->>'verification_id' in (${ids})`)),
      ]);
      expect(dump).toContain(v.id);
      for (const secret of ['ERASE0001', 'A PERSONAL NOTE', 'order-42', 'DOE<<JANE', '127.0.0.1:9/hooks']) {
        expect(dump.includes(secret), secret).toBe(false);
      }
      const audit = rowsOf(await ctx.app.db.execute(sql`select data from identity_audit_events where verification_id = ${v.id}`));
      expect(JSON.stringify(audit)).not.toContain('order-42');
    });
  });

  it('keeps an append-only hash chain of every state change and reviewer action, with actor and time', async () => {
    const id = await inManualReview(1005);
    await api(ctx).call('POST', `/v1/review/${id}`, tenant.reviewer, { decision: 'approve', note: NOTE }, 200);
    const rows = rowsOf<{
      verification_id: string;
      seq: number;
      type: string;
      actor: string;
      data: Record<string, unknown>;
      prev_hash: string;
      hash: string;
      created_at: Date | string;
    }>(await ctx.app.db.execute(sql`select * from identity_audit_events where verification_id = ${id} order by seq`));
    expect(rows.map((r) => r.type)).toEqual([
      'verification.created',
      'handoff.issued',
      'capture.document_uploaded',
      'capture.challenge_issued',
      ...rows.filter((r) => r.type === 'capture.frame_uploaded').map(() => 'capture.frame_uploaded'),
      'verification.processing',
      'verification.manual_review',
      'review.decided',
      'verification.approved',
    ]);
    expect(rows.find((r) => r.type === 'review.decided')!.actor).toMatch(/^reviewer:[0-9a-f-]{36}$/);
    expect(rows.find((r) => r.type === 'verification.created')!.actor).toMatch(/^backend:/);
    const entries = rows.map((r) => ({
      verificationId: r.verification_id,
      seq: r.seq,
      type: r.type,
      actor: r.actor,
      data: r.data,
      prevHash: r.prev_hash,
      hash: r.hash,
      createdAt: new Date(r.created_at),
    }));
    expect(verifyAuditChain(entries)).toBe(true);
    const tampered = entries.map((e) => (e.type === 'review.decided' ? { ...e, data: { ...e.data, decision: 'decline' } } : e));
    expect(verifyAuditChain(tampered)).toBe(false);
  });
});
