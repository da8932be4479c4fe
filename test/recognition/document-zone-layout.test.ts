import { describe, expect, it } from 'vitest';
import { zoneFromText } from '../../src/recognition/document/repair.js';
import { fieldsValid, zoneHolds, type ZoneFormat } from '../../src/recognition/document/zone-layout.js';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import { LOOK_ALIKE_HOLDER } from '../helpers/zones.js';

const holder = (surname: string): Holder => ({ ...LOOK_ALIKE_HOLDER, surname, givenNames: '' });

describe('a zone whose holder has a surname only (pure)', () => {
  // 28 letters and the `<<` that ends a surname fill a TD1 card's name line: the mrz package
  // refuses the empty given name there (tuning seed 13, hard TD1 #2), and only there.
  const long = 'CGTSDIKQDYFZHYGKDEXYIVBDSQAJ';

  it.each<[ZoneFormat, string]>([
    ['TD1', long],
    ['TD1', 'NG'],
    ['TD2', long],
    ['TD3', long],
  ])('holds on a %s zone with the surname %s', (format, surname) => {
    const lines = mrzLines(format, holder(surname));
    expect(fieldsValid(lines)).toBe(true);
    expect(zoneHolds(lines)).toBe(true);
    expect(zoneFromText(lines.join('\n'), lines.join('\n'))).toEqual({ format, lines });
  });

  it('still refuses a field that is not valid, and a check digit that does not hold', () => {
    const lines = mrzLines('TD1', holder(long));
    expect(fieldsValid([lines[0]!, lines[1]!.replace('F', 'Q'), lines[2]!])).toBe(false);
    expect(zoneHolds([lines[0]!.replace('AB8', 'AB9'), lines[1]!, lines[2]!])).toBe(false);
  });
});
