import { describe, expect, it } from 'vitest';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import type { DocumentSpec } from '../../scripts/documents/render.js';
import { portraitPath } from '../../scripts/documents/fixture-set.js';
import { useTestApp } from '../helpers/suite.js';
import { api, HIGH_LIMITS, identityTenant } from '../helpers/identity.js';
import { ADULT_CARD_HOLDER } from '../helpers/zones.js';
import { captureDocument, cardParts, documentPart } from './document-capture.js';

const ADULT: Holder = ADULT_CARD_HOLDER;
/** Sixteen on the test clock's 2026-11-22. */
const MINOR: Holder = { ...ADULT, givenNames: 'MAREK', documentNumber: 'L898902C3', birthDate: '100301' };
const card = (holder: Holder, more: Partial<DocumentSpec> = {}): DocumentSpec => ({
  format: 'TD1',
  holder,
  portrait: portraitPath('person-a-1'),
  layout: 0.4,
  ...more,
});
const mismatch = { status: 'manual_review', decision_reason: 'document_sides_mismatch' };

// Real OCR and real face models (FACE_CHECKS=on, the default) on a shared, busy CPU: few
// verifications, each one a case of the rule (docs/document-reading.md, "Document reading", one document per verification).
describe('one document per verification (real OCR, face checks on)', { timeout: 480_000 }, () => {
  const { ctx, tenant } = useTestApp(
    { env: { ...HIGH_LIMITS, DOCUMENT_READING: 'on', FACE_CHECKS: 'on', FACE_TIMEOUT_MS: '200000', FACE_WORKER_NICE: '0' } },
    { tenant: identityTenant },
  );

  it('approves a card whose front shows the document number of the zone on its back', async () => {
    const v = await captureDocument(ctx, tenant.backend, await cardParts(card(ADULT), card(ADULT), 10));
    expect(v).toMatchObject({ status: 'approved', document: { type: 'id_card', issuing_country: 'D', mrz_source: 'image' } });
    const age = await api(ctx).call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'age_over_18' }, 201);
    expect(age.json().value).toBe(true);
  });

  it("sends a minor's card front with an adult's card back to review, and attests no age from that back", async () => {
    const v = await captureDocument(ctx, tenant.backend, await cardParts(card(MINOR), card(ADULT, { layout: 0.7 }), 20));
    expect(v).toMatchObject({ ...mismatch, document: null });
    const a = api(ctx);
    const refused = await a.call('POST', `/v1/attestations/${v.id}`, tenant.backend, { claim: 'age_over_18' }, 409);
    expect(refused.json()).toEqual({ detail: expect.any(String) });
    // The reviewer sees the zone read from the back beside both sides, and decides.
    const review = (await a.call('GET', `/v1/review/${v.id}`, tenant.reviewer, undefined, 200)).json();
    expect(review.document.mrz.lines).toBe(mrzLines('TD1', ADULT).join('\n'));
    expect(review.document.back).not.toBeNull();
  });

  it("sends a passport's data page sent as the back of a card to review", async () => {
    const passport = { ...card(ADULT), format: 'TD3' as const };
    const parts = [await documentPart(card(ADULT), 'front', 30), await documentPart(passport, 'front', 31, 'back')];
    expect(await captureDocument(ctx, tenant.backend, parts)).toMatchObject(mismatch);
  });

  it('sends a card whose front shows no legible document number to review', async () => {
    const parts = await cardParts(card(MINOR, { printedNumber: null }), card(MINOR), 40);
    expect(await captureDocument(ctx, tenant.backend, parts)).toMatchObject(mismatch);
  });

  it('sends a typed zone that differs from the zone read only by look-alikes to review, and declines one that differs otherwise', async () => {
    const holder = { ...ADULT, issuingCountry: 'SWE', nationality: 'SWE', documentNumber: 'L898902C3' };
    const printed = mrzLines('TD3', holder);
    const page = { ...card(holder), format: 'TD3' as const };
    // 8 typed as S (their values are equal modulo 10, so every check digit still holds): an OCR slip.
    const slip = [printed[0], printed[1]!.replace('L898902C3', 'L89S902C3')].join('\n');
    const slipped = await captureDocument(ctx, tenant.backend, [await documentPart(page, 'front', 50), { name: 'mrz', value: slip }]);
    expect(slipped).toMatchObject({ status: 'manual_review', decision_reason: 'mrz_mismatch', document: { mrz_source: 'typed' } });
    // Another surname (no check digit covers it): O typed as E is no slip the reader makes.
    const other = [printed[0]!.replace('NOVAK', 'NEVAK'), printed[1]].join('\n');
    const declined = await captureDocument(ctx, tenant.backend, [await documentPart(page, 'front', 51), { name: 'mrz', value: other }]);
    expect(declined).toMatchObject({ status: 'declined', decision_reason: 'mrz_mismatch' });
  });
});
