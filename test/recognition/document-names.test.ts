import { describe, expect, it } from 'vitest';
import { nameByAgreement } from '../../src/recognition/document/names.js';
import type { ZoneReading } from '../../src/recognition/document/zone-layout.js';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';

const HOLDER: Holder = {
  surname: 'ROSSI',
  givenNames: 'PIOTR',
  documentNumber: 'M02560621',
  issuingCountry: 'PRT',
  nationality: 'PRT',
  birthDate: '890717',
  sex: '<',
  expiryDate: '340816',
};
const zoneOf = (format: 'TD1' | 'TD3', holder: Partial<Holder> = {}): ZoneReading => ({
  format,
  lines: mrzLines(format, { ...HOLDER, ...holder }),
});

describe('the holder’s name, which no check digit covers, is the one the most engine readings show (pure)', () => {
  it('takes the name the other passes read over the one a single engine misread (seed 8123, phone photo #18: PIOTR read as PIQTR)', () => {
    const printed = zoneOf('TD1');
    const misread = zoneOf('TD1', { givenNames: 'PIQTR' });
    // Pass 1: the legacy engine read PIOTR, the LSTM engine PIQTR (its letter was taken); pass 2: both PIOTR.
    const texts = [
      printed.lines.join('\n'),
      misread.lines.join('\n').replace(/<<</g, 'KLK'),
      printed.lines.join('\n'),
      printed.lines.join('\n'),
    ];
    expect(nameByAgreement(misread, [misread, printed], texts)).toEqual(printed);
    expect(nameByAgreement(printed, [misread, printed], texts)).toEqual(printed);
  });

  it('works on the first line of a passport (TD3), after the document code and issuing state', () => {
    const printed = zoneOf('TD3', { surname: 'OLSEN', givenNames: 'MIKKEL' });
    const split = zoneOf('TD3', { surname: 'OLSEN', givenNames: 'IVIIKKEL' });
    const texts = [split.lines.join('\n'), printed.lines.join('\n'), printed.lines.join('\n')];
    expect(nameByAgreement(split, [split, printed], texts)).toEqual(printed);
  });

  it('keeps the name read on a tie, and never takes a name from a zone that differs elsewhere', () => {
    const printed = zoneOf('TD1');
    const misread = zoneOf('TD1', { givenNames: 'PIQTR' });
    expect(nameByAgreement(misread, [misread, printed], [misread.lines.join('\n'), printed.lines.join('\n')])).toEqual(misread);
    // Another document number: that zone's name is no candidate, however many texts show it.
    const other = zoneOf('TD1', { documentNumber: 'M02560622' });
    const texts = [printed.lines.join('\n'), printed.lines.join('\n'), printed.lines.join('\n')];
    expect(nameByAgreement(misread, [misread, other, null], texts)).toEqual(misread);
  });
});
