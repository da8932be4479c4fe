/**
 * The cancellation check (docs/document-reading.md, "Document reading"; pure): letters the engines
 * read in place of digits, and 0s they read as O, whose swaps could keep a check digit holding
 * together (several swaps can cancel under the 7-3-1 weights), unless the glyphs' heights or shapes
 * show the digits. repair.ts refuses a reading this finds open.
 */
import { digitTall, glyphScale, type ZoneGlyph } from './glyph-heights.js';
import { shapeWitness, type ShapeWitness } from './glyph-shapes.js';
import { LETTER_DIGITS, UNCHECKABLE } from './look-alikes.js';
import { checkDigitOf, checkDigitsHold, CHECKED_MIXED_FIELDS, COMPOSITE, fieldsValid, SHAPES, type ZoneFormat } from './zone-layout.js';

/**
 * The reading with every letter that the engines read for a digit turned into one of its digits
 * where it stands in a checked mixed field as tall as the zone's digits (glyph-heights.ts), when
 * that settles what lettersMayBeDigits left open: exactly one choice of digits (I is read for 1
 * and 9) changes something, keeps every check digit and field holding and leaves no such letter
 * that could be a digit. Else null. A letter never stood that tall in the measured set
 * (docs/document-reading.md, the glyph table), so there the glyph says what the check digits could
 * not (seed 8123, clean #29: three 0s of DG0015086 read as O by both engines, the glyphs of all
 * three as tall as digits).
 */
export function lettersStandingTall(format: ZoneFormat, lines: string[], glyphs: ZoneGlyph[][]): string[] | null {
  const scale = glyphScale(lines, SHAPES[format], glyphs);
  if (!scale) return null;
  const widths = lines.map((l) => l.length);
  const offset = (row: number) => widths.slice(0, row).reduce((sum, w) => sum + w, 0);
  const tall: { row: number; column: number; digits: string[] }[] = [];
  for (const { row, start, check } of CHECKED_MIXED_FIELDS[format])
    for (let column = start; column < check; column++) {
      const digits = DIGITS_READ_AS[lines[row]![column]!];
      if (digits && digitTall(scale[offset(row) + column])) tall.push({ row, column, digits });
    }
  if (tall.length === 0) return null;
  const settled: string[][] = [];
  for (const choice of mixesOf(tall.map((t) => t.digits.length))) {
    const out = lines.map((l) => [...l]);
    tall.forEach((t, k) => (out[t.row]![t.column] = t.digits[choice[k]!]!));
    const digits = out.map((l) => l.join(''));
    if (checkDigitsHold(digits) && fieldsValid(digits) && !lettersMayBeDigits(format, digits, shapeWitness(digits, glyphs)))
      settled.push(digits);
  }
  return settled.length === 1 ? settled[0]! : null;
}

/** Past this many mixes of swaps a field is taken as one whose swaps may cancel, without trying them. */
const MAX_SWAP_MIXES = 4096;

/** Every choice of one option per place (`counts[k]` options at place k), as indices; none when they are too many. */
function* mixesOf(counts: number[]): Generator<number[]> {
  const total = counts.reduce((n, c) => n * c, 1);
  if (total > MAX_SWAP_MIXES) return;
  for (let mix = 0; mix < total; mix++) {
    let rest = mix;
    yield counts.map((c) => {
      const k = rest % c;
      rest = Math.floor(rest / c);
      return k;
    });
  }
}

/**
 * The letters the engines read in place of printed digits, with the digits each may stand for
 * (look-alikes.ts, one table): measured over every pass of seed 4711's 120 documents (mixed fields:
 * 0 as O 35 times, 5 as S 44, 8 as B 17; every other such letter 7 times or fewer), and on numbers
 * that mix letters and digits anywhere both engines read 4 as A and 1 as T in every pass,
 * cancelling with an O (issue 43: `TG4X0PL03` read as `TGAXOPLO3`; a varied tuning set:
 * `1X0XMV4LV` read as `TXOXMV4LV`), and 9 as I (seed 6029, hard TD1 #0: `H0PW9E59Y` read as
 * `HOPWIES9Y`). On the varied set's numbers such letters can cancel in about 5 % of them, which
 * then need the glyph heights. A twin (G for 6, L for 1, S for 8, U for 0) weighs as its digit,
 * cancels nothing and is the twin rule's (twins.ts).
 */
const DIGITS_READ_AS: Record<string, string[]> = Object.fromEntries(
  Object.entries(LETTER_DIGITS)
    .map(([letter, digits]) => [letter, [...digits].filter((digit) => UNCHECKABLE[letter] !== digit)] as const)
    .filter(([, digits]) => digits.length > 0),
);

/**
 * True when letters of a document number or optional data that the engines read for digits, read
 * as any of those digits, would make the field's check digit hold too: one such letter alone never
 * keeps it holding, several can cancel (measured, seed 8123: DG0015086 read as DGOO15O86 by both
 * engines, three 0s as O at weights 1, 7 and 7).
 */
export function lettersMayBeDigits(format: ZoneFormat, lines: string[], shapes: ShapeWitness): boolean {
  return swapsMayCancel(format, lines, DIGITS_READ_AS, shapes) || compositeSwapsMayCancel(format, lines, DIGITS_READ_AS, shapes);
}

/**
 * As swapsMayCancel, for the optional data only the composite check digit covers (TD1, TD2): some
 * of its characters that `swaps` lists, swapped, keep the composite holding. The repair never
 * changes such a character (positions), but every reading can misread it, and two such misreadings
 * can cancel under the composite as under any check digit.
 */
function compositeSwapsMayCancel(format: ZoneFormat, lines: string[], swaps: Record<string, string[]>, shapes: ShapeWitness): boolean {
  const { fields, check } = COMPOSITE[format];
  const composite = fields.flatMap(({ row, start, end }) => [...lines[row]!.slice(start, end)]);
  const where = fields.flatMap(({ row, start, end }) => Array.from({ length: end - start }, (_, k) => [row, start + k] as const));
  const compositeOnly = fields.flatMap(({ row, start, end }) => [...SHAPES[format][row]!.slice(start, end)].map((cls) => cls === 'o'));
  return someSwapHolds(
    composite,
    (i) => (compositeOnly[i] ? swapsLeft(swaps, composite[i]!, where[i]![0], where[i]![1], shapes) : []),
    Number(lines[1]![check]),
  );
}

/**
 * True when some of the characters of a checked mixed field that `swaps` lists, each swapped for
 * one of its options or kept, keep its check digit holding; also when the mixes are too many to try.
 */
function swapsMayCancel(format: ZoneFormat, lines: string[], swaps: Record<string, string[]>, shapes: ShapeWitness): boolean {
  return CHECKED_MIXED_FIELDS[format].some(({ row, start, check }) => {
    const field = [...lines[row]!.slice(start, check)];
    return someSwapHolds(field, (i) => swapsLeft(swaps, field[i]!, row, start + i, shapes), Number(lines[row]![check]));
  });
}

/**
 * Whether `chars`, with at least one character swapped for one of the options `optionsAt` gives
 * its place (the others kept), can make the check digit `printed`; true too past MAX_SWAP_MIXES
 * mixes, which are not tried.
 */
function someSwapHolds(chars: string[], optionsAt: (i: number) => string[], printed: number): boolean {
  const swapsAt = chars.map((_, i) => optionsAt(i));
  const places = chars.flatMap((_, i) => (swapsAt[i]!.length > 0 ? [i] : []));
  const options = places.map((i) => [chars[i]!, ...swapsAt[i]!]);
  const counts = options.map((o) => o.length);
  if (counts.reduce((n, c) => n * c, 1) > MAX_SWAP_MIXES) return true;
  for (const choice of mixesOf(counts)) {
    if (choice.every((k) => k === 0)) continue;
    const swapped = [...chars];
    places.forEach((i, k) => (swapped[i] = options[k]![choice[k]!]!));
    if (checkDigitOf(swapped) === printed) return true;
  }
  return false;
}

/**
 * The other way round: 0s of a document number or optional data that, read as O, would keep its
 * check digit holding too (two at weights 7 and 3 always do: O is 24, and 4 × 10 ≡ 0). Both engines
 * can read a printed O as 0 in every pass (a generated set outside the project: `OO0199811` read as
 * `000199811`), so such a field counts only where every 0 stands as tall as the zone's digits
 * (zeroesStandTall); a typeface or photo that gives no glyph heights leaves it unread.
 */
export const zeroesMayBeLetters = (format: ZoneFormat, lines: string[], shapes: ShapeWitness) =>
  swapsMayCancel(format, lines, { '0': ['O'] }, shapes);

/**
 * The swaps `swaps` lists for the character `c` at line `row`, character `column`, less those the
 * glyph's shape rules out by the shape witness's margin (glyph-shapes.ts): a glyph that resembles
 * its A more than a 4 by the margin is no 4 misread.
 */
function swapsLeft(swaps: Record<string, string[]>, c: string, row: number, column: number, shapes: ShapeWitness): string[] {
  return (swaps[c] ?? []).filter((option) => !shapes.prefers(row, column, c, option));
}

/** Every 0 of the checked mixed fields stands digit-tall (glyph-heights.ts). */
export function zeroesStandTall(format: ZoneFormat, lines: string[], glyphs: ZoneGlyph[][]): boolean {
  const scale = glyphScale(lines, SHAPES[format], glyphs);
  if (!scale) return false;
  const widths = lines.map((l) => l.length);
  const offset = (row: number) => widths.slice(0, row).reduce((sum, w) => sum + w, 0);
  return CHECKED_MIXED_FIELDS[format].every(({ row, start, check }) =>
    [...lines[row]!.slice(start, check)].every((c, i) => c !== '0' || digitTall(scale[offset(row) + start + i])),
  );
}
