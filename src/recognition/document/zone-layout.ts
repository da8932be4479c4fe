/**
 * Where ICAO 9303 puts what in a machine-readable zone (TD1, TD2, TD3; pure): the class of character
 * each position holds, the fields that may hold letters and digits, what the composite check digit
 * covers, and whether a zone's check digits hold. The repair (repair.ts), the cancellation check
 * (cancellation.ts) and the certainty rule (certainty.ts) read a zone through these.
 */
import { parse } from 'mrz';

export type ZoneFormat = 'TD1' | 'TD2' | 'TD3';

export interface ZoneReading {
  format: ZoneFormat;
  lines: string[];
}

/**
 * d: digit, a: letter, x: letter or digit (document numbers, optional data), n: name, f: sex,
 * c: check digit. In SHAPES, o marks letters or digits that only the composite check digit covers
 * (the optional data of TD1 and TD2): read as x, but never changed into a look-alike.
 */
export type FieldClass = 'd' | 'a' | 'x' | 'n' | 'f' | 'c';

export const SHAPES: Record<ZoneFormat, string[]> = {
  TD3: [
    'a' + 'a' + 'aaa' + 'n'.repeat(39),
    'x'.repeat(9) + 'c' + 'aaa' + 'dddddd' + 'c' + 'f' + 'dddddd' + 'c' + 'x'.repeat(14) + 'c' + 'c',
  ],
  TD2: ['aa' + 'aaa' + 'n'.repeat(31), 'x'.repeat(9) + 'c' + 'aaa' + 'dddddd' + 'c' + 'f' + 'dddddd' + 'c' + 'o'.repeat(7) + 'c'],
  TD1: [
    'aa' + 'aaa' + 'x'.repeat(9) + 'c' + 'o'.repeat(15),
    'dddddd' + 'c' + 'f' + 'dddddd' + 'c' + 'aaa' + 'o'.repeat(11) + 'c',
    'n'.repeat(30),
  ],
};

/** The field classes of a zone format's lines, one letter per character (see FieldClass). */
export const zoneShape = (format: ZoneFormat): string[] => SHAPES[format];

/** The characters each class of SHAPES lets a place hold, the filler everywhere. */
const CLASS_HOLDS: Record<string, RegExp> = {
  d: /[0-9<]/,
  c: /[0-9<]/,
  a: /[A-Z<]/,
  f: /[MF<]/,
  n: /[A-Z<]/,
  x: /[A-Z0-9<]/,
  o: /[A-Z0-9<]/,
};

/** Whether a place of class `cls` (a letter of SHAPES) may hold `char`. */
export const classHolds = (cls: string, char: string): boolean => CLASS_HOLDS[cls]!.test(char);

export function parsed(lines: string[]) {
  try {
    return parse(lines);
  } catch {
    return null;
  }
}

export function checkDigitsHold(lines: string[]): boolean {
  const checks = parsed(lines)?.details.filter((d) => d.field?.endsWith('CheckDigit')) ?? [];
  return checks.length > 0 && checks.every((d) => d.valid);
}

/**
 * Every field is valid as the mrz package parses it (the states known, the document code and sex
 * allowed), but for an empty given name: the package refuses it where a surname of 28 letters and
 * its `<<` fill a TD1 card's name line (tuning seed 13, hard TD1 #2), while it takes a surname
 * alone in every other format and length, and some states print the surname only.
 */
export function fieldsValid(lines: string[]): boolean {
  const result = parsed(lines);
  return result !== null && result.details.every((d) => d.valid || (d.field === 'firstName' && d.value === ''));
}

/** Every check digit holds, the composite included, and every field is valid (fieldsValid). */
export const zoneHolds = (lines: string[]): boolean => checkDigitsHold(lines) && fieldsValid(lines);

/** Where the fields that may hold letters and digits stand: line `row`, characters `start` to `end` (exclusive). */
export const MIXED_FIELDS: Record<ZoneFormat, { row: number; start: number; end: number }[]> = {
  TD1: [
    { row: 0, start: 5, end: 14 },
    { row: 0, start: 15, end: 30 },
    { row: 1, start: 18, end: 29 },
  ],
  TD2: [
    { row: 1, start: 0, end: 9 },
    { row: 1, start: 28, end: 35 },
  ],
  TD3: [
    { row: 1, start: 0, end: 9 },
    { row: 1, start: 28, end: 42 },
  ],
};

/**
 * The fields of a zone that may hold letters and digits (document number, optional data): there
 * a look-alike read for its twin can keep every check digit holding (G and 6 weigh the same modulo
 * 10; two S/5 swaps can cancel under the 7-3-1 weights), so the reader has another reading of the
 * image confirm them. Trailing fillers are left out: the engines agree on those.
 */
export function mixedFields(zone: ZoneReading): string[] {
  return MIXED_FIELDS[zone.format]
    .map(({ row, start, end }) => zone.lines[row]!.slice(start, end).replace(/<+$/, ''))
    .filter((f) => f.length > 0);
}

/** Where a mixed field with a check digit of its own stands: line `row`, characters `start` to `check` (its check digit). */
export const CHECKED_MIXED_FIELDS: Record<ZoneFormat, { row: number; start: number; check: number }[]> = {
  TD1: [{ row: 0, start: 5, check: 14 }],
  TD2: [{ row: 1, start: 0, check: 9 }],
  TD3: [
    { row: 1, start: 0, check: 9 },
    { row: 1, start: 28, check: 42 },
  ],
};

/** ICAO 9303 value of a zone character: digits as themselves, A to Z as 10 to 35, the filler as 0. */
export function valueOf(c: string): number {
  return c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
}

/** ICAO 9303 check digit: the values weighted 7-3-1, modulo 10. */
export const checkDigitOf = (chars: string[]) => chars.reduce((sum, c, i) => sum + valueOf(c) * [7, 3, 1][i % 3]!, 0) % 10;

/** What the composite check digit covers (ICAO 9303 parts 4 to 6): line `row`, characters `start` to `end` (exclusive), in order; its check digit at `check` of the second line. */
export const COMPOSITE: Record<ZoneFormat, { fields: { row: number; start: number; end: number }[]; check: number }> = {
  TD1: {
    fields: [
      { row: 0, start: 5, end: 30 },
      { row: 1, start: 0, end: 7 },
      { row: 1, start: 8, end: 15 },
      { row: 1, start: 18, end: 29 },
    ],
    check: 29,
  },
  TD2: {
    fields: [
      { row: 1, start: 0, end: 10 },
      { row: 1, start: 13, end: 20 },
      { row: 1, start: 21, end: 35 },
    ],
    check: 35,
  },
  TD3: {
    fields: [
      { row: 1, start: 0, end: 10 },
      { row: 1, start: 13, end: 20 },
      { row: 1, start: 21, end: 43 },
    ],
    check: 43,
  },
};

/** The (line, character) of the `i`th character of a zone whose lines are `widths` long. */
export const placeIn =
  (widths: number[]) =>
  (i: number): [number, number] => {
    let row = 0;
    let rest = i;
    while (row < widths.length - 1 && rest >= widths[row]!) rest -= widths[row++]!;
    return [row, rest];
  };
