import { describe, expect, it } from 'vitest';
import { zoneCertainty } from '../../src/recognition/document/certainty.js';
import type { ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import {
  PAIR_BUFFER,
  PAIR_MIN_MARGIN,
  preference,
  SHAPE_MARGIN,
  shapeMargin,
  shapeWitness,
} from '../../src/recognition/document/glyph-shapes.js';
import { MEASURED_PAIRS } from '../../src/recognition/document/shape-pairs.js';
import { twinsConfirmed, type EngineLines } from '../../src/recognition/document/twins.js';
import { zoneFromText } from '../../src/recognition/document/repair.js';
import type { ZoneReading } from '../../src/recognition/document/zone-layout.js';
import { mrzLines } from '../../scripts/documents/mrz-lines.js';
import { LOOK_ALIKE_HOLDER } from '../helpers/zones.js';

const HOLDER = LOOK_ALIKE_HOLDER;

/** One pass: what each engine read, line by line. */
const pass = (legacy: string[], lstm: string[] = legacy): EngineLines => ({
  legacy: legacy.map((text) => ({ text, confidences: [] })),
  lstm: lstm.map((text) => ({ text, confidences: [] })),
});
/** Glyphs at a 24 px pitch, each with the likeness `likeness(row, column)` gives it. */
const glyphsWith = (lines: string[], likeness: (row: number, column: number) => Record<string, number> | undefined): ZoneGlyph[][] =>
  lines.map((line, row) =>
    [...line].map((c, column) => {
      const l = likeness(row, column);
      return { cx: 40 + column * 24, width: 15, height: c === '<' ? 34 : 42, ...(l ? { likeness: l } : {}) };
    }),
  );

describe('the certainty rule with the shape witness (pure)', () => {
  // 8 and S weigh the same modulo 10: a number read with either holds its check digit. The legacy
  // engine read the printed 8 in one pass, the LSTM engine an S in another.
  const zone: ZoneReading = { format: 'TD2', lines: mrzLines('TD2', HOLDER) };
  const readS = zone.lines.map((l, i) => (i === 1 ? l.replace('AB8', 'ABS') : l));
  const twin = pass(zone.lines, readS);
  const at = (row: number, column: number, likeness: Record<string, number>) => (r: number, c: number) =>
    r === row && c === column ? likeness : undefined;

  it('takes a twin the shapes settle by the margin as no other reading', () => {
    const glyphs = glyphsWith(zone.lines, at(1, 2, { '8': 0.95, S: 0.95 - shapeMargin('8', 'S') - 0.01, B: 0.7 }));
    expect(zoneCertainty(zone, [pass(zone.lines), twin], glyphs).uncertain).toBe(false);
    expect(twinsConfirmed(zone, pass(zone.lines), [pass(zone.lines), twin], glyphs)).toBe(true);
    // Without the shapes, an S read in some pass keeps the digit from counting (twins.ts).
    expect(twinsConfirmed(zone, pass(zone.lines), [pass(zone.lines), twin])).toBe(false);
  });

  it('leaves uncertain a twin the shapes prefer by less than the margin, or where they said nothing', () => {
    for (const glyphs of [
      glyphsWith(zone.lines, at(1, 2, { '8': 0.95, S: 0.95 - shapeMargin('8', 'S') + 0.01 })),
      glyphsWith(zone.lines, () => undefined),
      undefined,
    ]) {
      expect(zoneCertainty(zone, [pass(zone.lines), twin], glyphs).uncertain).toBe(true);
    }
  });

  it('never lets the shape alone stand for a character no reading showed', () => {
    const everyReading = pass(readS);
    const glyphs = glyphsWith(zone.lines, at(1, 2, { '8': 0.95, S: 0.5 }));
    expect(zoneCertainty(zone, [everyReading], glyphs).uncertain).toBe(true);
  });

  it('counts a character the likeness did not keep as resembling no more than the least it kept', () => {
    expect(preference({ S: 0.9, B: 0.8, G: 0.7 }, 'S', '8')).toBeCloseTo(0.2, 5);
    expect(preference({ B: 0.9, G: 0.7 }, 'S', '8')).toBeUndefined();
  });

  it('settles a nationality read as SEN in one pass and BEN in another, both states, where the glyph resembles the B by the margin', () => {
    const readSEN = pass(zone.lines.map((l, i) => (i === 1 ? l.replace('BEN', 'SEN') : l)));
    expect(zoneCertainty(zone, [pass(zone.lines), readSEN]).uncertain).toBe(true);
    const glyphs = glyphsWith(zone.lines, at(1, 10, { B: 0.93, S: 0.93 - shapeMargin('B', 'S') - 0.001, E: 0.6 }));
    expect(zoneCertainty(zone, [pass(zone.lines), readSEN], glyphs).uncertain).toBe(false);
  });
});

describe('a misreading every reading made, which the shape contradicts (pure)', () => {
  const zone: ZoneReading = { format: 'TD2', lines: mrzLines('TD2', HOLDER) };
  const at = (likeness: Record<string, number>) => (row: number, column: number) => (row === 1 && column === 2 ? likeness : undefined);

  it('leaves uncertain a number whose glyph resembles another letter or digit more by the margin, though every reading agreed', () => {
    expect(zoneCertainty(zone, [pass(zone.lines)]).uncertain).toBe(false);
    expect(
      zoneCertainty(zone, [pass(zone.lines)], glyphsWith(zone.lines, at({ B: 0.9, '8': 0.9 - shapeMargin('8', 'B') - 0.001 }))).uncertain,
    ).toBe(true);
    // A preference below the margin, or for the filler, says nothing against the reading.
    expect(
      zoneCertainty(zone, [pass(zone.lines)], glyphsWith(zone.lines, at({ B: 0.9, '8': 0.9 - shapeMargin('8', 'B') + 0.02 }))).uncertain,
    ).toBe(false);
    expect(zoneCertainty(zone, [pass(zone.lines)], glyphsWith(zone.lines, at({ '<': 0.9, '8': 0.5 }))).uncertain).toBe(false);
  });
});

describe('the cancellation check with the shape witness (pure)', () => {
  // The lost attempt's OO0199811 read as 000199811: O is 24, two swaps at weights 7 and 3 cancel,
  // so every 0 read could be an O. Heights say nothing here (every glyph 42 px high).
  const printed: ZoneReading = { format: 'TD3', lines: mrzLines('TD3', { ...HOLDER, documentNumber: '000199811' }) };
  const text = printed.lines.join('\n');
  const zeroes = (margin: number) => (row: number, column: number) =>
    row === 1 && column < 3 ? { '0': 0.9, O: 0.9 - margin, Q: 0.6 } : undefined;

  it('reads 0s the shapes tell from O by the margin, and leaves them unread below it', () => {
    expect(zoneFromText(text, text)).toBeNull();
    expect(zoneFromText(text, text, glyphsWith(printed.lines, zeroes(shapeMargin('0', 'O') + 0.001)))).toEqual(printed);
    expect(zoneFromText(text, text, glyphsWith(printed.lines, zeroes(shapeMargin('0', 'O') - 0.02)))).toBeNull();
  });
});

describe('a twin digit every reading agreed on, whose glyph leans to its letter (pure)', () => {
  // The engines read a printed G as 6 in every pass, and G and 6 weigh the same modulo 10: the
  // number holds either way (fresh seed 8209, hard TD3 #24: 6585G3C5R read as 658563C5R).
  const printedG: ZoneReading = { format: 'TD3', lines: mrzLines('TD3', { ...HOLDER, documentNumber: '6585G3C5R' }) };
  const readSix: ZoneReading = { format: 'TD3', lines: mrzLines('TD3', { ...HOLDER, documentNumber: '658563C5R' }) };
  const everyReading = pass(readSix.lines);
  const at = (likeness: Record<string, number>) => (row: number, column: number) => (row === 1 && column === 4 ? likeness : undefined);

  it('does not count the digit where the glyph resembles its letter twin more, by any margin', () => {
    // The glyph measured on that photo: G 0.92, 6 0.826, below the margin that settles a contest.
    const glyphs = glyphsWith(readSix.lines, at({ G: 0.92, '6': 0.826, Q: 0.867 }));
    expect(twinsConfirmed(readSix, everyReading, [everyReading], glyphs)).toBe(false);
  });

  it('counts it where the glyph resembles the digit more, or was not measured, as before', () => {
    expect(twinsConfirmed(readSix, everyReading, [everyReading], glyphsWith(readSix.lines, at({ '6': 0.9, G: 0.89 })))).toBe(true);
    expect(
      twinsConfirmed(
        readSix,
        everyReading,
        [everyReading],
        glyphsWith(readSix.lines, () => undefined),
      ),
    ).toBe(true);
    expect(twinsConfirmed(readSix, everyReading, [everyReading])).toBe(true);
  });

  it('leaves a printed letter alone: a G the engines read as G is not held to the shape', () => {
    const readG = pass(printedG.lines);
    expect(twinsConfirmed(printedG, readG, [readG], glyphsWith(printedG.lines, at({ '6': 0.95, G: 0.9 })))).toBe(true);
  });
});

describe('each pair of characters its own margin, from what the shape confused on the tuning seeds (pure)', () => {
  const zone: ZoneReading = { format: 'TD2', lines: mrzLines('TD2', HOLDER) };
  const readS = pass(zone.lines.map((l, i) => (i === 1 ? l.replace('AB8', 'ABS') : l)));
  const at = (row: number, column: number, likeness: Record<string, number>) => (r: number, c: number) =>
    r === row && c === column ? likeness : undefined;

  it('asks more of a pair the shape has confused than the common margin, less of one it never has, the same either way round', () => {
    // Over the tuning seeds a printed 1 resembled T more by up to 0.13, a 0 O by up to 0.10; no printed 8 resembled S more by more than 0.006.
    expect(shapeMargin('1', 'T')).toBeGreaterThan(SHAPE_MARGIN);
    expect(shapeMargin('0', 'O')).toBeGreaterThan(SHAPE_MARGIN);
    expect(shapeMargin('8', 'S')).toBeLessThan(SHAPE_MARGIN);
    for (const [a, b] of [
      ['1', 'T'],
      ['8', 'S'],
      ['M', 'H'],
    ] as const)
      expect(shapeMargin(a, b)).toBe(shapeMargin(b, a));
    expect(shapeMargin('8', 'S')).toBeCloseTo(MEASURED_PAIRS['8S']![1] + PAIR_BUFFER, 9);
    // Never under the floor, however far apart the pair was measured; the filler has no measured pair.
    expect(MEASURED_PAIRS['1M']![1] + PAIR_BUFFER).toBeLessThan(PAIR_MIN_MARGIN);
    expect(shapeMargin('1', 'M')).toBe(PAIR_MIN_MARGIN);
    expect(shapeMargin('K', '<')).toBe(SHAPE_MARGIN);
  });

  it('settles a twin by a preference under the common margin where the pair is never confused', () => {
    const between = (shapeMargin('8', 'S') + SHAPE_MARGIN) / 2;
    const glyphs = glyphsWith(zone.lines, at(1, 2, { '8': 0.95, S: 0.95 - between }));
    expect(zoneCertainty(zone, [pass(zone.lines), readS], glyphs).uncertain).toBe(false);
    expect(twinsConfirmed(zone, pass(zone.lines), [pass(zone.lines), readS], glyphs)).toBe(true);
  });

  it('does not rule out a T against a 1 by the common margin: the pair the shape confuses most', () => {
    // The 1 of AB8123456 stands at line 1, column 3.
    const glyphs = glyphsWith(zone.lines, at(1, 3, { '1': 0.9, T: 0.9 - SHAPE_MARGIN - 0.01 }));
    expect(shapeWitness(zone.lines, glyphs).prefers(1, 3, '1', 'T')).toBe(false);
    expect(
      shapeWitness(zone.lines, glyphsWith(zone.lines, at(1, 3, { '1': 0.9, T: 0.9 - shapeMargin('1', 'T') }))).prefers(1, 3, '1', 'T'),
    ).toBe(true);
  });

  it("finds a rival by the pair's margin where that is less than the common one, and never by more", () => {
    // A glyph read as 8 by every reading that resembles B more, by less than the common margin.
    const byLess = glyphsWith(zone.lines, at(1, 2, { B: 0.9, '8': 0.9 - (shapeMargin('8', 'B') + SHAPE_MARGIN) / 2 }));
    expect(zoneCertainty(zone, [pass(zone.lines)], byLess).uncertain).toBe(true);
    // A 1 that resembles T more by the common margin is still a rival, though the pair's own margin is larger.
    const oneAsT = glyphsWith(zone.lines, at(1, 3, { T: 0.9, '1': 0.9 - SHAPE_MARGIN - 0.001 }));
    expect(shapeWitness(zone.lines, oneAsT).rival(1, 3, '1')).toBe('T');
  });
});
