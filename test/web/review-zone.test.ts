import { describe, expect, it } from 'vitest';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import { mrzFields } from '../../src/identity/views.js';
import {
  matchesFirstApproval,
  zoneDateWords,
  zoneDifferenceWords,
  zoneFieldWords,
  zoneLineRuns,
  zoneProblems,
  zoneSourceWords,
} from '../../web/console/review-zone.js';

const HOLDER: Holder = {
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  documentNumber: 'L898902C3',
  issuingCountry: 'SWE',
  nationality: 'SWE',
  birthDate: '740812',
  sex: 'F',
  expiryDate: '300415',
};
const today = new Date('2026-11-26T09:00:00Z');

describe('the machine-readable zone in words for the reviewer (pure)', () => {
  it('lists the fields of the zone on record (as the case view sends them) in words, dates spelled out', () => {
    const fields = mrzFields(mrzLines('TD3', HOLDER).join('\n'))!;
    expect(zoneFieldWords({ ...fields, source: 'image', lines: '' }, today)).toEqual([
      { label: 'Document type', value: 'Passport (P)' },
      { label: 'Issued by', value: 'SWE' },
      { label: 'Surname', value: 'ERIKSSON' },
      { label: 'Given names', value: 'ANNA MARIA' },
      { label: 'Document number', value: 'L898902C3' },
      { label: 'Nationality', value: 'SWE' },
      { label: 'Date of birth', value: '12 August 1974' },
      { label: 'Sex', value: 'Female' },
      { label: 'Expires', value: '15 April 2030' },
    ]);
    const card = mrzFields(mrzLines('TD1', { ...HOLDER, issuingCountry: 'D', nationality: 'D', birthDate: '080101' }).join('\n'))!;
    const words = zoneFieldWords(card, today);
    expect(words[0]).toEqual({ label: 'Document type', value: 'Identity card (I)' });
    // A birth year above this year's two digits is last century's; at or below it, this century's.
    expect(words.find((w) => w.label === 'Date of birth')!.value).toBe('1 January 2008');
    expect(zoneDateWords('991231', 'birth', today)).toBe('31 December 1999');
    expect(zoneDateWords('251231', 'expiry', today)).toBe('31 December 2025 (expired)');
    expect(zoneDateWords('261126', 'expiry', today)).toBe('26 November 2026');
    expect(zoneDateWords('261341', 'expiry', today)).toBe('261341 (not a date)');
    // Nothing known: no rows (the panel says where the zone came from instead).
    expect(zoneFieldWords({ source: null, lines: '' }, today)).toEqual([]);
  });

  it('says where the zone came from, and what an empty or failed reading means', () => {
    expect(zoneSourceWords('image', 'P<SWE…')).toMatch(/^Read from the document images/);
    expect(zoneSourceWords('reviewer', '')).toMatch(/^Entered by a reviewer/);
    expect(zoneSourceWords('typed', '')).toMatch(/not read from the document/);
    expect(zoneSourceWords(null, '')).toMatch(/^Nothing was read/);
    expect(zoneSourceWords(null, 'P<SWE…')).toMatch(/check digits do not hold/);
  });

  it('finds what the service would refuse in a zone being confirmed: shape, characters, each failing check digit', () => {
    const td3 = mrzLines('TD3', HOLDER);
    expect(zoneProblems(td3.join('\n'))).toEqual([]);
    // Lower case and stray spaces are fine: the service normalises them the same way.
    expect(zoneProblems(`  ${td3[0]!.toLowerCase()}\r\n\n${td3[1]} `)).toEqual([]);
    expect(zoneProblems(mrzLines('TD1', HOLDER).join('\n'))).toEqual([]);
    expect(zoneProblems('')).toEqual(['The zone is empty.']);
    expect(zoneProblems('P<SWE ERIKSSON, ANNA')).toEqual([expect.stringMatching(/^Line 1 has characters a zone never holds/)]);
    expect(zoneProblems(`${td3[0]}\n${td3[1]!.slice(0, 40)}`)).toEqual([
      'These are 2 lines of 44, 40 characters. A passport has 2 lines of 44 characters; an ID card 3 lines of 30, or 2 lines of 36.',
    ]);
    // One digit of the birth date wrong: its own check digit and the final one fail.
    const wrong = td3[1]!.replace('740812', '740813');
    expect(zoneProblems(`${td3[0]}\n${wrong}`)).toEqual([
      'The check digit of the birth date does not hold (line 2, character 20).',
      'The final check digit, over the whole zone, does not hold (line 2, character 44).',
    ]);
  });

  it('marks where a zone differs from the first approval’s, character by character, and says where in words', () => {
    const printed = mrzLines('TD3', HOLDER).join('\n');
    const slip = printed.replace('L898902C3', 'L898902G3');
    expect(zoneLineRuns(slip, printed)).toEqual([
      [{ text: printed.split('\n')[0], differs: false }],
      [
        { text: 'L898902', differs: false },
        { text: 'G', differs: true },
        { text: printed.split('\n')[1]!.slice(8), differs: false },
      ],
    ]);
    expect(zoneDifferenceWords(slip, printed)).toBe('They differ (marked) at line 2, character 8.');
    expect(zoneDifferenceWords(printed, printed.toLowerCase())).toBe('The two zones are the same.');
    // A line the other lacks, or a shorter one, differs wholly where it is missing.
    expect(zoneLineRuns('AB', 'A\nC')).toEqual([
      [
        { text: 'A', differs: false },
        { text: 'B', differs: true },
      ],
    ]);
    expect(zoneDifferenceWords('AB', 'A\nC')).toBe('They differ (marked) at line 1, character 2; line 2, character 1.');
    expect(zoneDifferenceWords('ABCDEFGHIJ', '0123456789')).toBe(
      'They differ (marked) at line 1, characters 1, 2, 3, 4, 5, 6, 7, 8 and 2 more.',
    );
  });

  it('says whether the zone typed is the first approval’s: the same lines once normalised, or both empty', () => {
    const printed = mrzLines('TD3', HOLDER).join('\n');
    expect(matchesFirstApproval(` ${printed.toLowerCase()}\n`, printed)).toBe(true);
    expect(matchesFirstApproval(printed.replace('L898902C3', 'L898902G3'), printed)).toBe(false);
    expect(matchesFirstApproval('  ', null)).toBe(true);
    expect(matchesFirstApproval(printed, null)).toBe(false);
    expect(matchesFirstApproval('', printed)).toBe(false);
  });
});
