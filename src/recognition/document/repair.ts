/**
 * From OCR text to a machine-readable zone (ICAO 9303 TD1, TD2, TD3) that can be trusted. The zone's
 * lines are found among the recognised lines; each position is repaired by the class of character
 * ICAO 9303 puts there (a digit where a date is, a letter where a country is); where a second
 * engine's reading disagrees, or a letter/digit confusion is possible in a field that may hold
 * both, the check digits choose, preferring the reading with the fewest changes. A reading counts
 * only when every check digit holds, the composite included, every field is valid (the country codes
 * exist, the document code and the sex are ones ICAO 9303 allows), and no other reading with as few
 * changes holds too.
 */
import { LSTM_TWIN_CONFIDENCE, type ReadLine } from './confidence.js';
import { digitTall, glyphScale, type GlyphScale, type ZoneGlyph } from './glyph-heights.js';
import { checkableLookAlikes, LETTER_DIGITS, UNCHECKABLE } from './look-alikes.js';
import { shapeWitness, type ShapeWitness } from './glyph-shapes.js';
import { lettersMayBeDigits, lettersStandingTall, zeroesMayBeLetters, zeroesStandTall } from './cancellation.js';
import {
  checkDigitsHold,
  fieldsValid,
  parsed,
  placeIn,
  SHAPES,
  type FieldClass,
  type ZoneFormat,
  type ZoneReading,
} from './zone-layout.js';

// The confusions OCR makes between letters and digits on OCR-B (look-alikes.ts, one table): a
// letter where only a digit may stand is read as its most common digit, a digit where only a letter
// may stand as the first letter whose most common digit it is (0 as O, 1 as I).
const TO_DIGIT: Record<string, string> = Object.fromEntries(Object.entries(LETTER_DIGITS).map(([letter, digits]) => [letter, digits[0]!]));
const TO_LETTER: Record<string, string> = Object.fromEntries(
  Object.entries(TO_DIGIT)
    .reverse()
    .map(([letter, digit]) => [digit, letter]),
);
// Letters read for other letters: tried only in country codes, where the list of codes decides.
const COUNTRY_ALTERNATIVES: Record<string, string[]> = {
  H: ['W'],
  N: ['W'],
  U: ['W', 'V'],
  V: ['W', 'U'],
  W: ['H', 'N', 'V'],
  O: ['D', 'Q'],
  D: ['O'],
  Q: ['O'],
  B: ['S'],
  '3': ['S', 'B'],
};
// What an engine that does not know the filler '<' reads in its place.
export const FILLER_LIKE: ReadonlySet<string> = new Set(['<', 'K', 'L', 'C', 'S', 'E', 'X']);

/** A reading that needs more changes than this is no reading: each change weakens the check digits. */
const MAX_CHANGES = 2;
/** At most this many checked characters may be read against the second engine's reading. */
const MAX_OVERRULED = 2;

/** The character a class forces (a digit where only digits may stand), or the character itself. */
export function forced(c: string, cls: FieldClass): string {
  switch (cls) {
    case 'd':
    case 'c':
      return /\d|</.test(c) ? c : (TO_DIGIT[c] ?? c);
    case 'a':
    case 'n':
      return /\d/.test(c) ? (TO_LETTER[c] ?? c) : c;
    case 'f':
      return c === 'M' || c === 'F' || c === '<' ? c : c === 'H' || c === 'N' ? 'M' : c === 'E' || c === 'P' ? 'F' : c;
    case 'x':
      return c;
  }
}

/** The other readings a position allows: the letter/digit twin in mixed fields, a filler check digit as 0. */
function confusions(c: string, cls: FieldClass): string[] {
  if (cls === 'x' && c !== '<') {
    const twin = /\d/.test(c) ? TO_LETTER[c] : TO_DIGIT[c];
    return twin ? [twin] : [];
  }
  if (cls === 'c' && c === '<') return ['0'];
  return [];
}

/** The line brought to its width: fillers added or removed where the OCR lost or doubled them. */
function fitWidth(line: string, width: number): string {
  let text = line;
  const longestRun = () => [...text.matchAll(/<+/g)].sort((a, b) => b[0].length - a[0].length)[0];
  while (text.length > width) {
    const run = longestRun();
    if (!run) return text.slice(0, width);
    text = text.slice(0, run.index) + text.slice(run.index + 1);
  }
  if (text.length < width) {
    const run = longestRun();
    const missing = '<'.repeat(width - text.length);
    text = run ? text.slice(0, run.index) + missing + text.slice(run.index) : text + missing;
  }
  return text;
}

/**
 * For each position of `a`, the character of `b` aligned with it (or undefined), by a global
 * alignment in which a filler-like character of `b` against a filler of `a` costs little.
 */
function alignTo(a: string, b: string): (string | undefined)[] {
  return alignedIndices(a, b).map((j) => (j === undefined ? undefined : b[j]));
}

/** For each position of `a`, the index in `b` of the character aligned with it (or undefined), as in alignTo. */
export function alignedIndices(a: string, b: string): (number | undefined)[] {
  const cost = (x: string, y: string) => (x === y ? 0 : x === '<' && FILLER_LIKE.has(y) ? 0.3 : 1);
  const n = a.length;
  const m = b.length;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) d[i]![j] = Math.min(d[i - 1]![j - 1]! + cost(a[i - 1]!, b[j - 1]!), d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
  const out: (number | undefined)[] = new Array(n).fill(undefined);
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    if (d[i]![j] === d[i - 1]![j - 1]! + cost(a[i - 1]!, b[j - 1]!)) {
      out[i - 1] = j - 1;
      i--;
      j--;
    } else if (d[i]![j] === d[i - 1]![j]! + 1) i--;
    else j--;
  }
  return out;
}

interface Position {
  /** the field may hold letters and digits (document numbers, optional data) */
  mixed: boolean;
  /** in a mixed field, the second engine's character aligned here, or undefined */
  witness?: string;
  primary: string;
  alternatives: string[];
  /** the second engine's reading where it saw another letter or digit than the first */
  contested?: string;
  /** a check digit covers this position (document numbers, dates, optional data, check digits) */
  checked: boolean;
}

/** Each position's reading from the first engine, with the second engine's where it saw a different character. */
function positions(lines: string[], shape: string[], second: ReadLine[]): Position[] {
  const texts = second.map((l) => l.text);
  return lines.flatMap((line, row) => {
    const match = bestMatchIndex(line, texts);
    const indices = match < 0 ? [] : alignedIndices(line, texts[match]!);
    const other = indices.map((j) => (j === undefined ? undefined : texts[match]![j]));
    const sure = indices.map((j) => j !== undefined && (second[match]!.confidences[j] ?? 0) >= LSTM_TWIN_CONFIDENCE);
    return [...shape[row]!].map((cls, i): Position => {
      const read = line[i]!;
      // Where the engines read the two twins of a pair the check digits cannot tell apart, the
      // second (LSTM) engine's character counts when it was sure: the legacy engine reads OCR-B's
      // G as 6 about as surely as it reads a true 6, the LSTM engine's twins were all less sure
      // (docs/document-reading.md, "Document reading", the measured table).
      // Where they read two different letters, the LSTM engine's counts when it was sure too: two
      // such disagreements can both keep the check digit holding (W read as N by the legacy
      // engine at two places weighing 7 and 3: 9 × 7 + 9 × 3 = 90), and the legacy engine reads
      // OCR-B's W as N or H (measured, seed 8123, phone photo #15: WW read as NN at 72 to 77 in
      // every pass, as WW by the LSTM engine at 98).
      const theirsSure = (cls === 'x' || cls === 'o') && other[i] !== undefined && sure[i];
      const c = theirsSure && (UNCHECKABLE[read] === other[i] || lettersDisagree(read, other[i]!)) ? other[i]! : read;
      const compositeOnly = cls === 'o';
      const klass = (compositeOnly ? 'x' : cls) as FieldClass;
      const checked = klass === 'x' || klass === 'd' || klass === 'c';
      const witness = klass === 'x' && seenAt(other, i) ? forced(other[i]!, 'x') : undefined;
      const primary = forced(c, klass);
      const seen = other[i];
      if (klass === 'c') {
        // A check digit is read, never repaired: one changed to make its field hold would make a
        // misprinted or forged one hold too. A letter where it stands counts only as the digit
        // the second engine saw there (O seen as 0), or as 0 where both engines read a letter
        // whose only digit is 0 (O, Q, D, U; look-alikes.ts): a check digit is printed as a
        // digit, so that letter is the 0 misread, not a repair (tuning seed 11: the check digit
        // 0 of 515I1D17H and of NY1FGP6DH read as O by both engines in every pass, a clean
        // render and a phone photo). No other digit is ever tried.
        const zero = (x: string | undefined) => x === '0' || (x !== undefined && LETTER_DIGITS[x] === '0');
        const digit = /\d|</.test(c)
          ? c
          : seen !== undefined && /\d/.test(seen) && seen === forced(c, 'c')
            ? seen
            : zero(c) && zero(seen)
              ? '0'
              : c;
        const contested = seen !== undefined && /\d/.test(seen) && seen !== digit ? seen : undefined;
        return { primary: digit, alternatives: [], contested, checked, witness, mixed: false };
      }
      // Optional data that only the composite check digit covers is never changed into a
      // look-alike neither engine saw: one check digit is too weak a witness for a change, and
      // such a change can make a misprinted check digit elsewhere hold (measured: Z read as 2 in
      // a document number and a 1 both engines saw changed to I in the optional data "repaired" a
      // broken number check digit). The second engine's reading is still weighed.
      const alternatives = compositeOnly ? [] : confusions(c, klass);
      // Where no check digit covers the place (document code, countries, names), a filler the
      // second engine saw beats a filler-like character of the first: the legacy engine reads a
      // lone '<' between letters as S or 5 now and then (measured), while neither engine invents
      // a filler over a printed letter.
      if (!checked && seen === '<' && (FILLER_LIKE.has(c) || c === '5'))
        return { primary: '<', alternatives: [], checked, witness, mixed: false };
      if (seen && c !== '<' && !(seen !== '<' && FILLER_LIKE.has(seen) && c === '<')) {
        const theirs = forced(seen, klass);
        // Names carry no check digit: where the engines disagree on a letter, the second engine's
        // (trained on printed words, better at letters) is taken; elsewhere the check digits choose.
        if (klass === 'n' && /[A-Z]/.test(theirs) && /[A-Z]/.test(primary) && theirs !== primary)
          return { primary: theirs, alternatives: [], checked, witness, mixed: false };
        if (theirs !== primary && theirs !== '<') {
          if (!alternatives.includes(theirs)) alternatives.unshift(theirs);
          return { primary, alternatives: checked ? alternatives : [], contested: theirs, checked, witness, mixed: klass === 'x' };
        }
      }
      return { primary, alternatives, checked, witness, mixed: klass === 'x' };
    });
  });
}

/** Two different letters, the second none an engine reads in place of a filler. */
const lettersDisagree = (read: string, seen: string) => /[A-Z]/.test(read) && /[A-Z]/.test(seen) && read !== seen && !FILLER_LIKE.has(seen);

const seenAt = (other: (string | undefined)[], i: number) => other[i] !== undefined;

function unwitnessed(reading: string[], all: Position[], shapes: ShapeWitness): boolean {
  const chars = reading.join('');
  const place = placeIn(reading.map((l) => l.length));
  return all.some((p, i) => {
    const c = chars[i]!;
    const twin = UNCHECKABLE[c];
    if (!p.mixed || twin === undefined) return false;
    // The glyph's shape tells the twins apart where the check digits cannot (glyph-shapes.ts).
    if (shapes.prefers(...place(i), c, twin)) return false;
    // The second engine must have seen this character, or a look-alike the check digits do tell apart (O for 0).
    const lookAlikes = checkableLookAlikes(c);
    const saw = (x: string | undefined) => x === c || (x !== undefined && lookAlikes.includes(x));
    // And the first engine too: where it saw another character (5 where the second saw 8), the
    // printed one may be the twin that looks like both (an S), and no check digit can tell.
    return !saw(p.witness) || !saw(p.primary);
  });
}

/** The index of the line of `candidates` that aligns best with `line`, or -1 when none matches half of it. */
export function bestMatchIndex(line: string, candidates: string[]): number {
  let best = { index: -1, score: Number.POSITIVE_INFINITY };
  candidates.forEach((c, index) => {
    const aligned = alignTo(line, c);
    // Fillers the other engine read as letters do not count against a match: it does not know them.
    const score = aligned.filter((x, i) => line[i] !== '<' && x !== line[i]).length;
    if (score < best.score) best = { index, score };
  });
  return best.score <= line.length / 2 ? best.index : -1;
}

/**
 * What a change costs: reading a position as the character the second engine saw there costs 1,
 * reading it as a look-alike neither engine saw costs 2. The cheapest reading that holds wins; two
 * that hold at the same cost make the zone unreadable.
 */
const changeCost = (p: Position, c: string) => (c === p.contested ? 1 : 2);

/** The zone's lines with up to `MAX_CHANGES` positions read as one of their alternatives, with the changes' cost. */
function* readingsWithChanges(all: Position[], widths: number[]): Generator<{ lines: string[]; cost: number }> {
  const options = all.flatMap((p, i) => p.alternatives.map((c) => ({ i, c, cost: changeCost(p, c) })));
  const build = (chosen: { i: number; c: string }[]): string[] => {
    const chars = all.map((p) => p.primary);
    for (const { i, c } of chosen) chars[i] = c;
    const out: string[] = [];
    let at = 0;
    for (const w of widths) {
      out.push(chars.slice(at, at + w).join(''));
      at += w;
    }
    return out;
  };
  function* subsets(from: number, left: number, chosen: typeof options): Generator<typeof options> {
    yield chosen;
    if (left === 0) return;
    for (let k = from; k < options.length; k++) {
      if (chosen.some((o) => o.i === options[k]!.i)) continue;
      yield* subsets(k + 1, left - 1, [...chosen, options[k]!]);
    }
  }
  for (const chosen of subsets(0, MAX_CHANGES, [])) yield { lines: build(chosen), cost: chosen.reduce((sum, o) => sum + o.cost, 0) };
}

function isKnownCountry(lines: string[], row: number): boolean {
  const field = row === 0 ? 'issuingState' : 'nationality';
  return Boolean(parsed(lines)?.details.find((d) => d.field === field)?.valid);
}

/**
 * Country codes repaired by the list of codes, as no check digit covers them: a code that is not
 * known is replaced only when exactly one known code is within the confusions the engines make.
 */
function repairCountries(lines: string[], format: ZoneFormat, all: Position[]): string[] | null {
  const widths = SHAPES[format].map((l) => l.length);
  const offset = (row: number) => widths.slice(0, row).reduce((sum, w) => sum + w, 0);
  const places: [number, number][] =
    format === 'TD1'
      ? [
          [0, 2],
          [1, 15],
        ]
      : [
          [0, 2],
          [1, 10],
        ];
  let current = lines;
  for (const [row, start] of places) {
    const withCode = (code: string) => current.map((l, r) => (r === row ? l.slice(0, start) + code + l.slice(start + 3) : l));
    // Where the engines read two different known codes, neither counts: no check digit can choose
    // (measured: SWE read as 8H5, that is BHS, by the legacy engine and as SWE by the LSTM engine).
    const seen = [0, 1, 2].map((i) => {
      const at = all[offset(row) + start + i]!;
      return [...new Set([at.primary, ...(at.contested ? [at.contested] : [])])];
    });
    const seenKnown = seen[0]!
      .flatMap((x) => seen[1]!.flatMap((y) => seen[2]!.map((z) => x + y + z)))
      .filter((code) => isKnownCountry(withCode(code), row));
    if (seenKnown.length > 1) return null;
    if (isKnownCountry(current, row)) continue;
    const letters = [0, 1, 2].map((i) => {
      const at = all[offset(row) + start + i]!;
      return [...new Set([at.primary, ...(at.contested ? [at.contested] : []), ...(COUNTRY_ALTERNATIVES[at.primary] ?? [])])];
    });
    const known = new Set<string>();
    for (const x of letters[0]!)
      for (const y of letters[1]!) for (const z of letters[2]!) if (isKnownCountry(withCode(x + y + z), row)) known.add(x + y + z);
    if (known.size !== 1) return null;
    current = withCode([...known][0]!);
  }
  return current;
}

const zoneLike = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, '').toUpperCase())
    .filter((l) => l.length >= 20 && /^[A-Z0-9<]+$/.test(l));

/** Runs of recognised lines of one format's width (± a few characters), brought to that width. */
function zoneCandidates(lines: string[]): { format: ZoneFormat; lines: string[] }[] {
  const out: { format: ZoneFormat; lines: string[] }[] = [];
  for (const format of ['TD3', 'TD2', 'TD1'] as const) {
    const shape = SHAPES[format];
    const width = shape[0]!.length;
    for (let i = 0; i + shape.length <= lines.length; i++) {
      const group = lines.slice(i, i + shape.length);
      if (group.every((l) => Math.abs(l.length - width) <= 4) && group.some((l) => l.includes('<<')))
        out.push({ format, lines: group.map((l) => fitWidth(l, width)) });
    }
  }
  return out;
}

/**
 * How many checked positions the reading takes against the second engine. A reading that holds
 * while the other engine saw different characters in several places is more likely a garbled line
 * whose check digits hold by chance (one digit in ten) than a true one.
 */
function overruled(reading: string[], all: Position[]): number {
  const chars = reading.join('');
  return all.filter((p, i) => p.checked && p.contested !== undefined && chars[i] !== p.contested).length;
}

/**
 * True when the reading could hold with other choices where the engines disagreed: two engines
 * reading different characters at two places can both satisfy a check digit (weights 7-3-1 sum
 * in steps of 10), and then neither reading is trustworthy. A letter read where the reading has a
 * digit whose glyph stands as tall as the zone's digits (glyph-heights.ts) is no other choice, as
 * in the certainty rule (certainty.ts): no letter of the measured set stood that tall
 * (docs/document-reading.md, the glyph table). Tuning seed 11, clean TD1 #3: 1X0XMV4LV read as
 * TXOXMV4LV by the LSTM engine in every pass, T and O cancelling at weights 7 and 1. Nor is a
 * character the glyph's shape rules out by the shape witness's margin (glyph-shapes.ts).
 */
function contestedTwin(reading: string[], all: Position[], widths: number[], scale: GlyphScale | null, shapes: ShapeWitness): boolean {
  const joined = reading.join('');
  const place = placeIn(widths);
  const letterOnDigit = (i: number) => /\d/.test(joined[i]!) && /[A-Z]/.test(all[i]!.contested!) && digitTall(scale?.[i]);
  const ruledOut = (i: number) => shapes.prefers(...place(i), joined[i]!, all[i]!.contested!);
  const places = all.flatMap((p, i) => (p.contested !== undefined && p.checked && !letterOnDigit(i) && !ruledOut(i) ? [i] : []));
  if (places.length > 10) return true;
  for (let mask = 1; mask < 1 << places.length; mask++) {
    const chars = [...joined];
    places.forEach((i, bit) => {
      if (mask & (1 << bit)) chars[i] = chars[i] === all[i]!.contested ? all[i]!.primary : all[i]!.contested!;
    });
    const lines: string[] = [];
    let at = 0;
    for (const w of widths) {
      lines.push(chars.slice(at, at + w).join(''));
      at += w;
    }
    if (checkDigitsHold(lines)) return true;
  }
  return false;
}

/**
 * Of readings that hold at the same cost, the one whose every change turns a character into a
 * digit where the glyph stands as tall as the zone's digits (glyph-heights.ts), when exactly one
 * is; else null. Measured on the generated set, a letter never stands that tall, so such a change
 * is the third witness two engines that read a 0 as O cannot give: O to 0 and 4 to A can both
 * make a check digit hold (at weight 7, O's 24 becoming 0 and 4 becoming A's 10 both shift the sum
 * by 2 modulo 10; measured, clean #9 of seed 5309: 0T4428158 read as OT4428158 in every pass), and
 * only the first stands where a digit's height was measured. A change to a letter is never
 * supported: some digits (4, 6) measure as short as letters.
 */
function digitsStandTall(readings: { lines: string[] }[], all: Position[], shape: string[], glyphs: ZoneGlyph[][]) {
  const supported = readings.filter(({ lines }) => {
    const scale = glyphScale(lines, shape, glyphs);
    const chars = lines.join('');
    return scale !== null && all.every((p, i) => chars[i] === p.primary || (/\d/.test(chars[i]!) && digitTall(scale[i])));
  });
  return supported.length === 1 ? supported[0]!.lines : null;
}

/**
 * The zone read from the text of one engine (`text`, whose fillers are trusted) with a second
 * engine's text of the same image (`second`, optional) as a second opinion on letters and digits;
 * null when no reading holds, or when two hold with as few changes (an ambiguous reading is none).
 */
export function zoneFromText(
  text: string,
  second: string | ReadLine[] = '',
  glyphs?: ZoneGlyph[][],
  { maxOverruled = MAX_OVERRULED }: { maxOverruled?: number } = {},
): ZoneReading | null {
  // Text without confidences is never sure of a twin.
  const secondLines =
    typeof second === 'string'
      ? zoneLike(second).map((l) => ({ text: l, confidences: [] }))
      : second.filter((l) => zoneLike(l.text).length > 0);
  for (const candidate of zoneCandidates(zoneLike(text))) {
    const shape = SHAPES[candidate.format];
    const all = positions(candidate.lines, shape, secondLines);
    const widths = shape.map((l) => l.length);
    const holding: { lines: string[]; cost: number }[] = [];
    for (const reading of readingsWithChanges(all, widths)) if (checkDigitsHold(reading.lines)) holding.push(reading);
    if (holding.length === 0) continue;
    const cheapest = Math.min(...holding.map((h) => h.cost));
    const best = holding.filter((h) => h.cost === cheapest);
    const reading = best.length === 1 ? best[0]!.lines : glyphs ? digitsStandTall(best, all, shape, glyphs) : null;
    const shapes = reading ? shapeWitness(reading, glyphs) : null;
    const lines =
      reading &&
      shapes &&
      !contestedTwin(reading, all, widths, glyphs ? glyphScale(reading, shape, glyphs) : null, shapes) &&
      overruled(reading, all) <= maxOverruled &&
      !unwitnessed(reading, all, shapes)
        ? repairCountries(reading, candidate.format, all)
        : null;
    // Every field must be valid too, not only the check digits: no check digit covers the
    // document code or the sex (measured: a P read as O and an F read as 5 in a zone whose check
    // digits all held).
    if (!lines || !fieldsValid(lines)) continue;
    let settled: string[] | null = lines;
    if (lettersMayBeDigits(candidate.format, lines, shapeWitness(lines, glyphs))) {
      const digits = glyphs && lettersStandingTall(candidate.format, lines, glyphs);
      settled = digits && !unwitnessed(digits, all, shapeWitness(digits, glyphs)) ? digits : null;
    }
    if (
      settled &&
      zeroesMayBeLetters(candidate.format, settled, shapeWitness(settled, glyphs)) &&
      !(glyphs && zeroesStandTall(candidate.format, settled, glyphs))
    )
      settled = null;
    if (settled) return { format: candidate.format, lines: settled };
  }
  return null;
}
