import { describe, expect, it } from 'vitest';
import { findZoneRows } from '../../src/recognition/document/band.js';
import { greyCopy } from '../../src/recognition/document/find-copy.js';
import { levelledZone } from '../../src/recognition/document/levelled-zone.js';
import { digitTall, glyphScale, glyphsByPlace, zoneGlyphs, type ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { zoneFromText } from '../../src/recognition/document/repair.js';
import { zoneShape } from '../../src/recognition/document/zone-layout.js';
import { portraitPath } from '../../scripts/documents/fixture-set.js';
import { mrzLines, type Holder } from '../../scripts/documents/mrz-lines.js';
import { CLEAN, renderDocument } from '../../scripts/documents/render.js';

// The measured case (seed 5309, clean #9): both engines read the 0 of 0T4428158 as O in every pass.
const HOLDER: Holder = {
  surname: 'ROSSI',
  givenNames: 'LUCA',
  documentNumber: '0T4428158',
  issuingCountry: 'ITA',
  nationality: 'ITA',
  birthDate: '810317',
  sex: 'M',
  expiryDate: '330921',
};
const LINES = mrzLines('TD1', HOLDER);
const SHAPE = zoneShape('TD1');
const MISREAD = [LINES[0]!.replace('0T4428158', 'OT4428158'), LINES[1], LINES[2]].join('\n');

/**
 * Glyphs as a levelled zone shows them: at a pitch of 24 px, letters `letter` px high, digits
 * `digit`, fillers lower, all `slope` px taller per 100 px to the right; `override` sets the height
 * of single places ("row:column").
 */
function glyphsOf(lines: string[], { letter = 40, digit = 43, slope = 0.5, override = {} as Record<string, number> } = {}): ZoneGlyph[][] {
  return lines.map((line, row) =>
    [...line].map((c, column) => {
      const cx = 40 + column * 24;
      const base = c === '<' ? 34 : /\d/.test(c) ? digit : letter;
      return { cx, width: 15, height: override[`${row}:${column}`] ?? base + (slope * cx) / 100 };
    }),
  );
}

describe('how tall a glyph stands, measured on the zone itself (pure)', () => {
  it("places the row's digits near 1 and its letters near 0, a slope along the rows taken out", () => {
    const scale = glyphScale(LINES, SHAPE, glyphsOf(LINES, { slope: 2 }))!;
    const chars = LINES.join('');
    [...chars].forEach((c, i) => {
      if (c === '<') return;
      expect(scale[i]!, `${c} at ${i}`).toBeCloseTo(/\d/.test(c) ? 1 : 0, 5);
    });
    expect(digitTall(scale[5])).toBe(true);
    expect(digitTall(scale[6])).toBe(false);
  });

  it('says nothing where the digits stand no taller than the letters, or the heights scatter', () => {
    expect(glyphScale(LINES, SHAPE, glyphsOf(LINES, { digit: 40.5 }))).toBeNull();
    // Every fourth fixed glyph 3 px off: the scatter is as large as the digits' excess.
    const override: Record<string, number> = {};
    LINES.forEach((line, row) => [...line].forEach((c, column) => column % 4 === 0 && c !== '<' && (override[`${row}:${column}`] = 46)));
    expect(glyphScale(LINES, SHAPE, glyphsOf(LINES, { override }))).toBeNull();
    // Glyphs of another number of rows than the reading's.
    expect(glyphScale(LINES, SHAPE, glyphsOf(LINES).slice(0, 2))).toBeNull();
  });

  it('places glyphs at the pitch, leaving out two run together, one off its place, and a row too broken to trust', () => {
    const row = glyphsOf([LINES[0]!])[0]!;
    // Two glyphs run together stand as one wide glyph between their places.
    const merged = [...row.slice(0, 7), { cx: (row[7]!.cx + row[8]!.cx) / 2, width: 40, height: 43 }, ...row.slice(9)];
    const places = glyphsByPlace(merged, 30)!;
    expect(places[6]).toBe(row[6]);
    expect(places[7]).toBeUndefined();
    expect(places[8]).toBeUndefined();
    const off = [...row.slice(0, 10), { ...row[10]!, cx: row[10]!.cx + 10 }, ...row.slice(11)];
    expect(glyphsByPlace(off, 30)![10]).toBeUndefined();
    expect(glyphsByPlace(row.slice(0, 20), 30)).toBeNull();
  });

  it('places in order a row of one glyph a place whose pitch narrows along it, as a photo in perspective shows it', () => {
    // Steps from 46 px at the left to 41 at the right (tuning seed 12, phone photos): one pitch
    // between the first and last glyph puts the middle ones half a place off.
    let cx = 60;
    const row = Array.from({ length: 30 }, (_, k) => {
      const g = { cx, width: 28, height: 43 };
      cx += 46 - (5 * k) / 28;
      return g;
    });
    expect(glyphsByPlace(row, 30)).toEqual(row);
    // Not when a glyph is missing or two run together: then the pitch places what it can.
    const merged = [...row.slice(0, 14), { cx: (row[14]!.cx + row[15]!.cx) / 2, width: 70, height: 43 }, ...row.slice(16)];
    expect(glyphsByPlace(merged, 30)?.[14]).toBeUndefined();
  });
});

describe('a 0 read as O by both engines, with a 4 whose change to A would hold too (pure)', () => {
  it('reads nothing from the text alone: two readings hold at the same cost', () => {
    expect(zoneFromText(MISREAD, MISREAD)).toBeNull();
  });

  it('reads the 0 where its glyph stands as tall as the digits', () => {
    expect(zoneFromText(MISREAD, MISREAD, glyphsOf(LINES))).toEqual({ format: 'TD1', lines: LINES });
  });

  it('reads nothing where the glyph stands as short as a letter: a printed O', () => {
    const printedO = glyphsOf(LINES, { override: { '0:5': 40 + (0.5 * (40 + 5 * 24)) / 100 } });
    expect(zoneFromText(MISREAD, MISREAD, printedO)).toBeNull();
  });

  it('reads nothing where two changes to a digit each hold and both glyphs stand tall', () => {
    // 0A7428158 read as OA7428158: O→0 at weight 7 and A→4 at weight 3 both shift the sum by 2.
    const lines = mrzLines('TD1', { ...HOLDER, documentNumber: '0A7428158' });
    const misread = [lines[0]!.replace('0A7428158', 'OA7428158'), lines[1], lines[2]].join('\n');
    expect(zoneFromText(misread, misread)).toBeNull();
    expect(zoneFromText(misread, misread, glyphsOf(lines))).toEqual({ format: 'TD1', lines });
    const tallA = { '0:6': 43 + (0.5 * (40 + 6 * 24)) / 100 };
    expect(zoneFromText(misread, misread, glyphsOf(lines, { override: tallA }))).toBeNull();
  });

  it('never takes a change to a letter on height alone: a short digit proves nothing', () => {
    // LB98902C3 read for L898902C3: B→8, 8→B and 2→Z each hold. The printed 8 standing tall picks
    // B→8; the printed digits all standing as short as letters picks nothing.
    const holder = { ...HOLDER, documentNumber: 'L898902C3' };
    const lines = mrzLines('TD1', holder);
    const misread = [lines[0]!.replace('L898902C3', 'LB98902C3'), lines[1], lines[2]].join('\n');
    expect(zoneFromText(misread, misread)).toBeNull();
    expect(zoneFromText(misread, misread, glyphsOf(lines))).toEqual({ format: 'TD1', lines });
    const allShort: Record<string, number> = {};
    for (let column = 5; column < 14; column++) allShort[`0:${column}`] = 40 + (0.5 * (40 + column * 24)) / 100;
    expect(zoneFromText(misread, misread, glyphsOf(lines, { override: allShort }))).toBeNull();
  });
});

describe('letters the engines read for digits, where they stand as tall as digits (pure)', () => {
  // Seed 8123, clean #29: both engines read three 0s of DG0015086 as O; at weights 1, 7 and 7 the
  // three changes cancel, so the misreading holds every check digit as printed.
  const lines = mrzLines('TD1', { ...HOLDER, documentNumber: 'DG0015086' });
  const misread = [lines[0]!.replace('DG0015086', 'DGOO15O86'), lines[1], lines[2]].join('\n');
  const shortAt = (columns: number[]) =>
    Object.fromEntries(columns.map((column) => [`0:${column}`, 40 + (0.5 * (40 + column * 24)) / 100]));

  it('reads nothing from the text alone', () => {
    expect(zoneFromText(misread, misread)).toBeNull();
  });

  it('reads the 0s where their glyphs stand as tall as digits', () => {
    expect(zoneFromText(misread, misread, glyphsOf(lines))).toEqual({ format: 'TD1', lines });
  });

  it('reads nothing where the glyphs stand as short as letters, or only some of them tall', () => {
    expect(zoneFromText(misread, misread, glyphsOf(lines, { override: shortAt([7, 8, 11]) }))).toBeNull();
    // One O left short: the two 0s alone do not make the check digit hold.
    expect(zoneFromText(misread, misread, glyphsOf(lines, { override: shortAt([11]) }))).toBeNull();
  });
});

describe('glyph heights on a rendered card (OCR-B from fonts-ocr-b)', () => {
  it("measures the document number's 0 digit-tall and its letters not", async () => {
    const image = await renderDocument({ format: 'TD1', holder: HOLDER, portrait: portraitPath('person-a-1'), layout: 0.3 }, 'back', CLEAN);
    const find = await greyCopy(image, 1000);
    const rows = findZoneRows(find)!;
    expect(rows).toHaveLength(3);
    const zone = levelledZone(find, rows, 1, 40);
    const scale = glyphScale(LINES, SHAPE, zoneGlyphs(zone, 3, 40))!;
    expect(scale).not.toBeNull();
    // Line 1: I<ITA then the number 0T4428158.
    expect(digitTall(scale[5])).toBe(true);
    for (const column of [0, 2, 3, 4, 6]) expect(digitTall(scale[column]), `column ${column}`).toBe(false);
  });
});
