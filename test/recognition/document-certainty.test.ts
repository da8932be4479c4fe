import { describe, expect, it } from 'vitest';
import { zoneCertainty } from '../../src/recognition/document/certainty.js';
import { zoneFromText } from '../../src/recognition/document/repair.js';
import { zoneHolds, type ZoneReading } from '../../src/recognition/document/zone-layout.js';
import { UNCHECKABLE } from '../../src/recognition/document/look-alikes.js';
import { LETTER_DIGITS } from '../../src/recognition/document/look-alikes.js';
import type { ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import type { EngineLines } from '../../src/recognition/document/twins.js';
import { decideReading, typedAgainstRead } from '../../src/identity/pipeline/decide.js';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';

const HOLDER: Holder = {
  surname: 'SZABO',
  givenNames: 'ZOE',
  documentNumber: 'TG4X0PL03',
  issuingCountry: 'NLD',
  nationality: 'DEU',
  birthDate: '880512',
  sex: 'F',
  expiryDate: '310214',
};
const zoneOf = (format: ZoneReading['format'], holder: Partial<Holder> = {}): ZoneReading => ({
  format,
  lines: mrzLines(format, { ...HOLDER, ...holder }),
});
/** One pass: what each engine read, line by line (confidences play no part in the rule). */
const pass = (legacy: string[], lstm: string[] = legacy): EngineLines => ({
  legacy: legacy.map((text) => ({ text, confidences: [] })),
  lstm: lstm.map((text) => ({ text, confidences: [] })),
});
/** Glyphs as a levelled zone shows them (as in document-glyph-heights.test.ts): letters 40 px high, digits 43, fillers 34; `letterHigh` places stand as letters. */
const glyphsOf = (lines: string[], letterHigh: string[] = []): ZoneGlyph[][] =>
  lines.map((line, row) =>
    [...line].map((c, column) => ({
      cx: 40 + column * 24,
      width: 15,
      height: c === '<' ? 34 : /\d/.test(c) && !letterHigh.includes(`${row}:${column}`) ? 43 : 40,
    })),
  );
/** The zone's lines with `from` replaced by `to` on line `row`. */
const edit = (zone: ZoneReading, row: number, from: string, to: string) => zone.lines.map((l, i) => (i === row ? l.replace(from, to) : l));
/** What the LSTM engine makes of fillers: runs of them read as K, L and C. */
const lstmFillers = (lines: string[]) => lines.map((l) => l.replace(/<<<</g, 'KLCK').replace(/<</g, 'KL'));

describe('a zone is certain only where the readings agree or the check digits settle them (pure; docs/document-reading.md, "Document reading", the certainty rule)', () => {
  const sure = { contested: [], uncertain: false, nameUncertain: false };

  it('takes a zone every engine read alike in every pass as certain, name included', () => {
    const zone = zoneOf('TD3');
    expect(zoneCertainty(zone, [pass(zone.lines), pass(zone.lines)])).toEqual(sure);
  });

  it("counts the LSTM engine's K, L and C where the zone has fillers as the fillers, but not the legacy engine's", () => {
    const zone = zoneOf('TD1', { documentNumber: 'X4711' });
    expect(zoneCertainty(zone, [pass(zone.lines, lstmFillers(zone.lines))])).toEqual(sure);
    // A K printed after a short number weighs 20, as the filler 0 modulo 10: both readings hold.
    const legacyK = pass(edit(zone, 0, 'X4711<', 'X4711K'), zone.lines);
    const certainty = zoneCertainty(zone, [pass(zone.lines), legacyK]);
    expect(certainty.contested).toEqual([{ row: 0, column: 10, char: '<', seen: ['<', 'K'] }]);
    expect(certainty.uncertain).toBe(true);
  });

  it("refuses issue 43's TG4X0PL03 read as TGAXOPLO3 when any pass read the 4 and the 0s: three swaps whose check digits cancel", () => {
    const printed = zoneOf('TD3');
    const misread: ZoneReading = { format: 'TD3', lines: edit(printed, 1, 'TG4X0PL03', 'TGAXOPLO3') };
    // Every check digit of the misreading holds: they are no proof between look-alikes.
    expect(zoneFromText(misread.lines.join('\n'), misread.lines.join('\n'))).toBeNull();
    const certainty = zoneCertainty(misread, [pass(misread.lines), pass(misread.lines, printed.lines)]);
    expect(certainty.contested.map((c) => c.seen.join('/'))).toEqual(['A/4', 'O/0', 'O/0']);
    expect(certainty.uncertain).toBe(true);
    // The printed zone with the same readings is no more certain: the misreading holds as well.
    expect(zoneCertainty(printed, [pass(misread.lines), pass(misread.lines, printed.lines)]).uncertain).toBe(true);
  });

  it('refuses a document number where the readings differ in a pair the check digits cannot tell apart (L/1, S/8, U/0, G/6)', () => {
    for (const [printed, twin] of [
      ['L', '1'],
      ['S', '8'],
      ['U', '0'],
      ['G', '6'],
    ] as const) {
      const zone = zoneOf('TD2', { documentNumber: `AB${printed}123456` });
      const other = pass(edit(zone, 1, `AB${printed}`, `AB${twin}`), zone.lines);
      const certainty = zoneCertainty(zone, [pass(zone.lines), other]);
      expect(certainty.contested).toEqual([{ row: 1, column: 2, char: printed, seen: [printed, twin] }]);
      expect(certainty.uncertain).toBe(true);
    }
  });

  it("counts a look-alike an engine read beside a character as seen there: seed 11's 2G951CJ read as 26951CJ everywhere but once as 2G6951CJ", () => {
    const printed = zoneOf('TD3', { documentNumber: '2G951CJ' });
    const misread: ZoneReading = { format: 'TD3', lines: edit(printed, 1, '2G951CJ', '26951CJ') };
    // G and 6 weigh the same modulo 10: every check digit of the misreading holds.
    expect(zoneHolds(misread.lines)).toBe(true);
    const doubled = pass(misread.lines, edit(printed, 1, '2G951CJ', '2G6951CJ'));
    const certainty = zoneCertainty(misread, [doubled, pass(misread.lines)]);
    expect(certainty.contested).toEqual([{ row: 1, column: 1, char: '6', seen: ['6', 'G'] }]);
    expect(certainty.uncertain).toBe(true);
    // A character that is no look-alike beside it (an X) shows nothing about it.
    const other = pass(misread.lines, edit(printed, 1, '2G951CJ', '2X6951CJ'));
    expect(zoneCertainty(misread, [other, pass(misread.lines)])).toEqual(sure);
  });

  it('lets the check digits settle a single slip they tell apart (O read for 0 once)', () => {
    const zone = zoneOf('TD3', { documentNumber: 'TG4X7PL03' });
    const certainty = zoneCertainty(zone, [pass(zone.lines), pass(zone.lines, edit(zone, 1, 'PL03', 'PLO3'))]);
    expect(certainty).toEqual({ contested: [{ row: 1, column: 7, char: '0', seen: ['0', 'O'] }], uncertain: false, nameUncertain: false });
  });

  it('does not count a letter seen where the zone has a digit standing digit-tall: O and 0 at weights 7 and 3', () => {
    // C59A3E0067: a reading showing both 0s as O would hold too (seen on a tuning photo).
    const zone = zoneOf('TD3', { documentNumber: 'C59A3E006' });
    const readings = [pass(zone.lines), pass(zone.lines, edit(zone, 1, 'E006', 'EOO6'))];
    expect(zoneCertainty(zone, readings).uncertain).toBe(true);
    expect(zoneCertainty(zone, readings, glyphsOf(zone.lines))).toEqual(sure);
    // Where the 0s stand only as tall as letters, the glyphs do not settle it.
    expect(zoneCertainty(zone, readings, glyphsOf(zone.lines, ['1:6', '1:7'])).uncertain).toBe(true);
  });

  it('refuses a character no reading showed: a repair only the check digits speak for', () => {
    const zone = zoneOf('TD3', { documentNumber: 'TG4X7PL03' });
    const everyReading = pass(edit(zone, 1, 'PL03', 'PLO3'));
    expect(zoneCertainty(zone, [everyReading, everyReading])).toEqual({
      contested: [{ row: 1, column: 7, char: '0', seen: ['O'] }],
      uncertain: true,
      nameUncertain: false,
    });
  });

  it('refuses a nationality read as two look-alike codes that are both states (BEN and SEN), not one that is no state (DEU and OEU)', () => {
    const benin = zoneOf('TD3', { nationality: 'BEN' });
    expect(zoneCertainty(benin, [pass(benin.lines), pass(edit(benin, 1, 'BEN', 'SEN'))]).uncertain).toBe(true);
    const germany = zoneOf('TD3');
    expect(zoneCertainty(germany, [pass(germany.lines), pass(edit(germany, 1, 'DEU', 'OEU'))]).uncertain).toBe(false);
  });

  it('reads a letter in a field of digits as the digit it looks like: an O in a date is no doubt', () => {
    const zone = zoneOf('TD3', { birthDate: '800512' });
    const other = pass(edit(zone, 1, '800512', '8O0512'));
    expect(zoneCertainty(zone, [pass(zone.lines), other])).toEqual(sure);
  });

  it("marks the name uncertain at any letter a reading shows otherwise: the lost attempt's SZABO→SZAOK, ZOE→ZNE, SIGGI→SIGRI and the issue's MATEQ, LINDAVIST", () => {
    const cases: [Partial<Holder>, string, string][] = [
      [{}, 'SZAOK', 'SZABO'],
      [{}, 'ZNE', 'ZOE'],
      [{ givenNames: 'SIGGI' }, 'SIGRI', 'SIGGI'],
      [{ surname: 'MATEO' }, 'MATEQ', 'MATEO'],
      [{ surname: 'LINDQVIST' }, 'LINDAVIST', 'LINDQVIST'],
    ];
    for (const [holder, read, printed] of cases) {
      for (const format of ['TD1', 'TD3'] as const) {
        const truth = zoneOf(format, holder);
        const row = format === 'TD1' ? 2 : 0;
        const misread: ZoneReading = { format, lines: edit(truth, row, printed, read) };
        // One engine in one pass read the printed name: the name read is no longer certain, the zone stands.
        const certainty = zoneCertainty(misread, [pass(misread.lines), pass(misread.lines, truth.lines)]);
        expect(certainty).toEqual({ contested: [], uncertain: false, nameUncertain: true });
      }
    }
  });

  it('marks the name uncertain where a reading lost one of its letters', () => {
    const zone = zoneOf('TD3');
    const lost = pass(edit(zone, 0, 'SZABO', 'SZAO'));
    expect(zoneCertainty(zone, [pass(zone.lines), lost]).nameUncertain).toBe(true);
  });

  it("marks the name uncertain where a reading of every line shows nothing like the name's: fillers taken as the LSTM engine's letters (tuning seed 17, hard TD3 #16)", () => {
    const printed = zoneOf('TD3', { surname: 'FPQDYAHZKG', givenNames: 'LOIC' });
    // The zone took the LSTM engine's C, L and K for the name's fillers; the legacy engine read
    // them as fillers, a line that differs from the zone's in most places.
    const filled: ZoneReading = {
      format: 'TD3',
      lines: [printed.lines[0]!.replace(/<{3,}$/, (run) => 'CL'.repeat(run.length).slice(0, run.length)), printed.lines[1]!],
    };
    const lstm = pass(filled.lines);
    expect(zoneCertainty(filled, [lstm]).nameUncertain).toBe(false);
    const legacyTrue = pass(printed.lines, filled.lines);
    expect(zoneCertainty(filled, [lstm, legacyTrue])).toMatchObject({ uncertain: false, nameUncertain: true });
    // A reading that found only the other line says nothing about the name.
    expect(zoneCertainty(filled, [lstm, pass([printed.lines[1]!], filled.lines)]).nameUncertain).toBe(false);
  });
});

describe('check digits are no proof between look-alikes that cancel (pure)', () => {
  it('leaves unread a number whose 0s, read as O, would keep its check digit holding, when no glyph height says they are digits', () => {
    // The lost attempt's OO0199811 read as 000199811: O is 24, two swaps at weights 7 and 3 cancel.
    const read = zoneOf('TD3', { documentNumber: '000199811' });
    expect(zoneFromText(read.lines.join('\n'), read.lines.join('\n'))).toBeNull();
    // 0s that cannot cancel (a single one) stay readable.
    const single = zoneOf('TD3', { documentNumber: 'X12019981' });
    expect(zoneFromText(single.lines.join('\n'), single.lines.join('\n'))).toEqual(single);
  });
  it("leaves unread seed 6029's H0PW9E59Y read as HOPWIES9Y by every reading: 0 as O, 9 as I and 5 as S cancel under the 7-3-1 weights", () => {
    for (const format of ['TD1', 'TD2', 'TD3'] as const) {
      const printed = zoneOf(format, { documentNumber: 'H0PW9E59Y' });
      const misread: ZoneReading = { format, lines: printed.lines.map((l) => l.replace('H0PW9E59Y', 'HOPWIES9Y')) };
      // Every check digit of the misreading holds, the composite included.
      expect(zoneHolds(misread.lines)).toBe(true);
      expect(zoneFromText(misread.lines.join('\n'), misread.lines.join('\n'))).toBeNull();
      // Where the glyphs of O, I and S stand as tall as the zone's digits, they are digits, and the
      // check digit tells which (I is read for 1 and 9; only 9 holds).
      expect(zoneFromText(misread.lines.join('\n'), misread.lines.join('\n'), glyphsOf(printed.lines))).toEqual(printed);
    }
  });

  it('leaves unread optional data only the composite covers where letters every reading showed, read as their digits, keep the composite holding (TD1, TD2)', () => {
    // 5X5 at composite weights 3 and 7: S for 5 twice shifts the sum by 23 × 10.
    const td1 = zoneOf('TD1', { documentNumber: 'X4711', optional: '5X5' });
    const td1Read = edit(td1, 0, '05X5<', '0SXS<');
    // TD2: the optional data starts at composite weight 1; 5 and 5 at weights 3 and 7.
    const td2 = zoneOf('TD2', { optional: 'K5X5' });
    const td2Read = edit(td2, 1, 'K5X5', 'KSXS');
    for (const [printed, read] of [
      [td1, td1Read],
      [td2, td2Read],
    ] as const) {
      expect(read).not.toEqual(printed.lines);
      expect(zoneHolds(read)).toBe(true);
      expect(zoneFromText(read.join('\n'), read.join('\n'))).toBeNull();
      // The printed zone, read as printed, is read: its optional data holds no such letter.
      expect(zoneFromText(printed.lines.join('\n'), printed.lines.join('\n'))).toEqual(printed);
    }
  });

  it('leaves unread a number in which every letter the engines read for a digit could be that digit, whichever of its digits (look-alikes.ts)', () => {
    // The same swap at weights 3 and 7 always cancels (10 times the difference); the twins (G/6,
    // L/1, S/8, U/0) need no second swap and are the twin rule's (twins.ts).
    for (const [letter, digits] of Object.entries(LETTER_DIGITS))
      for (const digit of digits) {
        if (UNCHECKABLE[letter] === digit) continue;
        const printed = zoneOf('TD3', { documentNumber: `X${digit}Y${digit}KW7K` });
        const read = printed.lines.map((l) => l.replace(`X${digit}Y${digit}KW7K`, `X${letter}Y${letter}KW7K`));
        expect(zoneHolds(read)).toBe(true);
        expect(zoneFromText(read.join('\n'), read.join('\n')), `${digit} read as ${letter}`).toBeNull();
      }
  });
});

describe('a disagreement the check digits or the glyphs settle does not leave a zone unread (pure)', () => {
  it("takes a 1 the LSTM engine read as T as seen: T weighs 28 more, which the check digit sees alone (tuning seed 11's ROU193DLU)", () => {
    const zone = zoneOf('TD1', { documentNumber: 'ROU193DLU', issuingCountry: 'ROU', nationality: 'ROU' });
    const lstm = edit(zone, 0, 'ROU193', 'ROUT93');
    expect(zoneFromText(zone.lines.join('\n'), lstm.join('\n'))).toEqual(zone);
    // The twin L read there leaves it open, as before: L and 1 weigh the same modulo 10.
    expect(zoneFromText(zone.lines.join('\n'), edit(zone, 0, 'ROU193', 'ROUL93').join('\n'))).toBeNull();
  });

  it("reads a check digit both engines read as O as the 0 it is printed as, and a broken one stays broken (tuning seed 11's 515I1D17H0)", () => {
    const zone = zoneOf('TD2', { documentNumber: '515I1D17H' });
    expect(zone.lines[1]!.slice(0, 10)).toBe('515I1D17H0');
    const read = edit(zone, 1, '515I1D17H0', '515I1D17HO').join('\n');
    expect(zoneFromText(read, read)).toEqual(zone);
    // One engine's O is not enough: the other read something else there.
    expect(zoneFromText(read, zone.lines.join('\n').replace('515I1D17H0', '515I1D17H6'))).toBeNull();
    // A number whose check digit is misprinted as 0 is not read, whatever the O becomes.
    const misprinted = zoneOf('TD2', { documentNumber: '515I1D17K' });
    expect(misprinted.lines[1]![9]).not.toBe('0');
    const broken = misprinted.lines.map((l, i) => (i === 1 ? `${l.slice(0, 9)}O${l.slice(10)}` : l)).join('\n');
    expect(zoneFromText(broken, broken)).toBeNull();
  });

  it("does not count a letter the second engine read where the glyph stands digit-tall: tuning seed 11's 1X0XMV4LV read as TXOXMV4LV (T and O cancel)", () => {
    const zone = zoneOf('TD1', { documentNumber: '1X0XMV4LV' });
    const lstm = edit(zone, 0, '1X0XMV4LV', 'TXOXMV4LV').join('\n');
    expect(zoneHolds(edit(zone, 0, '1X0XMV4LV', 'TXOXMV4LV'))).toBe(true);
    expect(zoneFromText(zone.lines.join('\n'), lstm)).toBeNull();
    expect(zoneFromText(zone.lines.join('\n'), lstm, glyphsOf(zone.lines))).toEqual(zone);
    // Where the 1 and the 0 stand only as tall as letters, the glyphs do not settle it.
    expect(zoneFromText(zone.lines.join('\n'), lstm, glyphsOf(zone.lines, ['0:5', '0:7']))).toBeNull();
  });
});

describe('a typed zone declines only over a difference the reader cannot make (pure; CONTRACT §7.2)', () => {
  const read = zoneOf('TD3', { surname: 'MATEO' });
  const typedWith = (surname: string) => zoneOf('TD3', { surname }).lines.join('\n');

  it('never takes an uncertain name as a difference that declines, only as one for review', () => {
    expect(typedAgainstRead(typedWith('MATEX'), read, true)).toBe('look_alike');
    expect(typedAgainstRead(typedWith('MATEX'), read, false)).toBe('different');
    expect(typedAgainstRead(typedWith('MATEO'), read, true)).toBe('same');
  });

  it('still declines a number that differs in a character no reading confuses, whatever the name', () => {
    const typed = (number: string) => [read.lines[0]!.replace('MATEO', 'MATEQ'), read.lines[1]!.replace('TG4X0PL03', number)].join('\n');
    expect(typedAgainstRead(typed('TG4X0PL93'), read, true)).toBe('different');
    expect(typedAgainstRead(typed('TGAX0PL03'), read, true)).toBe('look_alike');
  });

  it('sends a verification whose typed name differs from an uncertain name read to review, never declining it', () => {
    const approved = { status: 'approved', reason: null } as const;
    const facts = (nameUncertain: boolean) => ({
      typed: typedWith('MATEX'),
      reading: { zone: read, text: read.lines.join('\n'), nameUncertain },
      numberUsedElsewhere: false,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    expect(decideReading(approved, facts(true))).toEqual({ status: 'manual_review', reason: 'mrz_mismatch' });
    expect(decideReading(approved, facts(false))).toEqual({ status: 'declined', reason: 'mrz_mismatch' });
  });
});
