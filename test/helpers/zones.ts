import { sql } from 'drizzle-orm';
import type { TestContext } from './app.js';
import type { Holder } from '../../scripts/documents/mrz-lines.js';
import { passportMrz } from './identity.js';

/**
 * A four-eyes case's three zones (docs/identity.md, Four-eyes review, and the reviewer console's zone field).
 * READ: the zone as the document reader saw it, the 5 of the document number read as S, so its
 * check digit fails. FIRST: the first reviewer's zone, valid but not what is printed (the expiry
 * entered as 2032). PRINTED: the zone as printed, which the second reviewer confirms.
 */
export const FOUR_EYES_ZONES = {
  READ: passportMrz().replace('X12345678', 'X1234S678'),
  FIRST: passportMrz({ expiry: '320101' }),
  PRINTED: passportMrz(),
};

/**
 * Sets the text the document reading saw, as the pipeline does with DOCUMENT_READING=on when the
 * reading found no zone whose check digits hold (test/identity/document-reading.test.ts runs the
 * reader itself).
 */
export async function zoneSeenByTheReader(ctx: TestContext, id: string, text: string): Promise<void> {
  await ctx.app.db.execute(sql`update identity_verifications set mrz_read = ${text} where id = ${id}`);
}

/** An adult card holder (TD1) of the one-document tests: pure rules and the OCR'd card alike. */
export const ADULT_CARD_HOLDER: Holder = {
  surname: 'NOVAK',
  givenNames: 'JAN',
  documentNumber: 'T22000129',
  issuingCountry: 'D',
  nationality: 'D',
  birthDate: '740812',
  sex: 'M',
  expiryDate: '300415',
};

/**
 * A holder whose zone the pure reader tests bend: twins in the document number (8 and S, 1 and L),
 * two states a letter apart (SEN, BEN) and a name of look-alike letters.
 */
export const LOOK_ALIKE_HOLDER: Holder = {
  surname: 'OSZBORN',
  givenNames: 'ZOE',
  documentNumber: 'AB8123456',
  issuingCountry: 'SEN',
  nationality: 'BEN',
  birthDate: '880512',
  sex: 'F',
  expiryDate: '310214',
};
