import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import type { Holder } from '../../scripts/documents/mrz-lines.js';
import type { DocumentSpec } from '../../scripts/documents/render.js';
import { portraitPath } from '../../scripts/documents/fixture-set.js';
import { captureDocument, documentPart } from './document-capture.js';

describe('the document reuse signal stays within a profile', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('does not send a verification to review because another tenant uploaded the same document', async () => {
    const other = await identityTenant(ctx);
    const document = png(640, 480, { seed: 7301 });
    const elsewhere = await captureAll(ctx, other.backend, { document });
    expect((await settle(ctx, other.backend, elsewhere.id)).status).toBe('approved');

    const first = await captureAll(ctx, tenant.backend, { document });
    expect(await settle(ctx, tenant.backend, first.id)).toMatchObject({ status: 'approved', decision_reason: null });

    // Within the profile the signal holds.
    const again = await captureAll(ctx, tenant.backend, { document });
    expect(await settle(ctx, tenant.backend, again.id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_reused' });
  });
});

// Real OCR and face models (FACE_CHECKS=on, the default): the number is read from the image, so
// each document is rendered afresh (new bytes) and only its number is the same.
describe('a document number used again within the profile (real OCR, face checks on)', { timeout: 480_000 }, () => {
  const { ctx, tenant } = useTestApp(
    { env: { ...HIGH_LIMITS, DOCUMENT_READING: 'on', FACE_CHECKS: 'on', FACE_TIMEOUT_MS: '200000', FACE_WORKER_NICE: '0' } },
    { tenant: identityTenant },
  );
  const holder: Holder = {
    surname: 'JANSEN',
    givenNames: 'SANNE',
    documentNumber: 'NL4407K25',
    issuingCountry: 'NLD',
    nationality: 'NLD',
    birthDate: '880530',
    sex: 'F',
    expiryDate: '310101',
  };
  const page: DocumentSpec = { format: 'TD3', holder, portrait: portraitPath('person-a-1'), layout: 0.2 };
  const passport = async (seed: number) => [await documentPart(page, 'front', seed)];

  it('sends the same number to review within 90 days, not after them, and never because of another profile', async () => {
    const first = await captureDocument(ctx, tenant.backend, await passport(1));
    expect(first).toMatchObject({ status: 'approved', decision_reason: null });

    // Another tenant's use of the number does not count, and the first tenant's does not count there.
    const other = await identityTenant(ctx);
    expect(await captureDocument(ctx, other.backend, await passport(2))).toMatchObject({ status: 'approved' });

    const again = await captureDocument(ctx, tenant.backend, await passport(3));
    expect(again).toMatchObject({ status: 'manual_review', decision_reason: 'document_reused', document: { mrz_source: 'image' } });
    // The reviewer is shown which verification used the number before.
    const review = (await api(ctx).call('GET', `/v1/review/${again.id}`, tenant.reviewer, undefined, 200)).json();
    expect(review.document_used_by.map((u: { id: string }) => u.id)).toEqual([first.id]);

    // 90 days after the last use the number is free again (the two uses above were the same day).
    ctx.clock.advance(90 * 24 * 60 * 60 * 1000 + 60_000);
    expect(await captureDocument(ctx, tenant.backend, await passport(4))).toMatchObject({ status: 'approved', decision_reason: null });
  });

  it('forgets the number of an erased verification', async () => {
    const spec = { ...page, holder: { ...holder, documentNumber: 'NL77A0031' } };
    const first = await captureDocument(ctx, tenant.backend, [await documentPart(spec, 'front', 11)]);
    expect(first.status).toBe('approved');
    await api(ctx).call('DELETE', `/v1/verifications/${first.id}`, tenant.backend, undefined, 200);
    const stored = rowsOf<{ hash: string | null }>(
      await ctx.app.db.execute(sql`select document_number_hash as hash from identity_verifications where id = ${first.id}`),
    );
    expect(stored).toEqual([{ hash: null }]);
    const next = await captureDocument(ctx, tenant.backend, [await documentPart(spec, 'front', 12)]);
    expect(next).toMatchObject({ status: 'approved', decision_reason: null });
  });
});
