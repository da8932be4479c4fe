import { describe, expect, it } from 'vitest';
import type { ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { passRead, settle, type PassRead } from '../../src/recognition/document/passes.js';
import { shapeReading } from '../../src/recognition/document/shape-reading.js';
import type { EngineLines } from '../../src/recognition/document/twins.js';
import type { ZoneFormat } from '../../src/recognition/document/zone-layout.js';
import { mrzLines } from '../../scripts/documents/mrz-lines.js';
import { LOOK_ALIKE_HOLDER } from '../helpers/zones.js';

const HOLDER = LOOK_ALIKE_HOLDER;

/** Glyphs at a 24 px pitch whose shapes resemble the printed character most, or what `likeness` says at a place. */
const glyphsOf = (
  lines: string[],
  likeness: (row: number, column: number) => Record<string, number> | undefined = () => undefined,
): ZoneGlyph[][] =>
  lines.map((line, row) =>
    [...line].map((c, column) => ({
      cx: 40 + column * 24,
      width: 15,
      height: c === '<' ? 34 : 42,
      likeness: likeness(row, column) ?? { [c]: 0.9, ...(c === '<' ? {} : { '<': 0.3 }) },
    })),
  );

/** One pass in which both engines read `lines`. */
const pass = (lines: string[]): EngineLines => ({
  legacy: lines.map((text) => ({ text, confidences: [] })),
  lstm: lines.map((text) => ({ text, confidences: [] })),
});

/** `line` with the characters at `slips` (column → character) read otherwise. */
const slipped = (line: string, slips: Record<number, string>) => [...line].map((c, i) => slips[i] ?? c).join('');

const reads = (passes: string[][], glyphs?: ZoneGlyph[][]): PassRead[] =>
  passes.map((lines) => passRead(lines.join('\n'), lines.join('\n'), pass(lines), glyphs));

describe('the shapes\u2019 reading of a zone (pure)', () => {
  it.each<ZoneFormat>(['TD1', 'TD2', 'TD3'])('reads a %s zone from its glyphs, taking the format their count fits', (format) => {
    const lines = mrzLines(format, HOLDER);
    expect(shapeReading(glyphsOf(lines))).toBe(lines.join('\n'));
  });

  it('reads each place as the likeliest character its class allows', () => {
    const lines = mrzLines('TD3', HOLDER);
    // The birth date's first 8 (line 2, column 13) resembles B more; a date holds digits only.
    // The surname's O (line 1, column 5) resembles 0 more; a name holds letters only.
    const glyphs = glyphsOf(lines, (row, column): Record<string, number> | undefined =>
      row === 1 && column === 13 ? { B: 0.92, '8': 0.9 } : row === 0 && column === 5 ? { '0': 0.93, O: 0.9 } : undefined,
    );
    expect(shapeReading(glyphs)).toBe(lines.join('\n'));
  });

  it('reads nothing where a place has no measured glyph or the rows fit no format', () => {
    const lines = mrzLines('TD2', HOLDER);
    const glyphs = glyphsOf(lines);
    delete glyphs[1]![4]!.likeness;
    expect(shapeReading(glyphs)).toBeNull();
    expect(shapeReading(glyphsOf([lines[0]!]))).toBeNull();
    expect(shapeReading(undefined)).toBeNull();
  });
});

describe('a zone the shapes propose (passes.ts)', () => {
  const zone = mrzLines('TD2', HOLDER);
  // Each pass slips on three checked characters, one each in the document number, the birth date
  // and the expiry date: beyond the repair's two changes, so neither pass's text gives a zone. Every
  // printed character was read in one of the two passes.
  const first = [zone[0]!, slipped(zone[1]!, { 5: '7', 18: '7', 25: '9' })];
  const second = [zone[0]!, slipped(zone[1]!, { 7: '7', 14: '3', 22: '7' })];

  it('is taken when the engines\u2019 readings show every character and the check digits settle every disagreement', () => {
    const glyphs = glyphsOf(zone);
    expect(settle(reads([first, second]))).toBeNull();
    expect(settle(reads([first, second], glyphs))).toEqual({ certain: { format: 'TD2', lines: zone }, nameUncertain: false });
  });

  it('is weighed only once two passes were read, as a zone read from text', () => {
    expect(settle(reads([first], glyphsOf(zone)))).toBeNull();
  });

  it('never stands for a character no engine read', () => {
    // Every reading saw a 7 for the document number's 5 (column 7); only the shapes show the 4.
    const both = [first, second].map((lines) => [lines[0]!, slipped(lines[1]!, { 7: '7' })]);
    expect(settle(reads(both, glyphsOf(zone)))).toBeNull();
  });

  it('leaves uncertain a disagreement the check digits cannot settle', () => {
    // The LSTM engine read the number's 8 as S in one pass (the twins weigh the same modulo 10);
    // the shapes resemble both alike, so nothing tells them apart.
    const glyphs = glyphsOf(zone, (row, column) => (row === 1 && column === 2 ? { '8': 0.9, S: 0.88 } : undefined));
    const withS = reads([first, second], glyphs);
    withS[1] = passRead(
      second.join('\n'),
      second.join('\n'),
      { ...pass(second), lstm: pass([zone[0]!, slipped(second[1]!, { 2: 'S' })]).lstm },
      glyphs,
    );
    expect(settle(withS)).toBeNull();
  });
});
