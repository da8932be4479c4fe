/**
 * When a zone read from an image is certain (docs/document-reading.md, "Document reading", the certainty rule; pure,
 * no OCR). Check digits are no proof between look-alike characters: some pairs never change a
 * check digit (L/1, S/8, U/0, G/6 weigh the same modulo 10) and several swaps can cancel (issue
 * 43: `TG4X0PL03` read as `TGAXOPLO3`, three swaps, every check digit holding). So the zone is
 * weighed against every reading the engines made of it:
 *
 * 1. Every engine's reading in every pass made over the image is aligned with the zone; a position
 *    is contested where some reading shows another character (compared as the position's class
 *    allows: in a field of digits a letter counts as the digit it is read for, in a field of
 *    letters a digit as its letter; the LSTM engine's K, L, C… where the zone has a filler count as
 *    the filler, as that engine does not know it), or a look-alike of it beside it that no position
 *    is aligned with (one glyph read as two: 6 read as G6).
 * 2. Outside the name, the zone counts only when each of its characters is one some reading showed
 *    there and no other mix of the characters the readings showed at the contested positions also
 *    makes every check digit hold and every field valid: a disagreement between twins (L/1, S/8,
 *    U/0, G/6) or between swaps that cancel leaves the zone unread, while a slip the check digits
 *    do tell apart (O read for 0 once) is settled by them. A letter seen where the zone's glyph
 *    stands as tall as its digits (glyph-heights.ts) is not counted: no letter of the measured
 *    set stood that tall (docs/document-reading.md, the glyph table), so there the glyph shows a digit.
 *    Nor is a character the glyph's shape rules out: one the glyph resembles less than the zone's
 *    character by the shape witness's margin (glyph-shapes.ts, the margin table in the docs).
 * 3. In the name, which no check digit covers, any contested position (or a letter some reading
 *    lost; a character the glyph's shape rules out, as in 2, does not count), or a reading of every
 *    line whose name line is nothing like the zone's, marks the name
 *    uncertain: the zone stands for every other field, the case view says so (signal
 *    `mrz_name_uncertain`) and the name never declines anyone.
 * 4. In the document number and optional data, a character whose glyph resembles another letter
 *    or digit more by the shape witness's margin leaves the zone uncertain, though every reading
 *    agreed: it closes, where the glyphs can be measured, the misreading no agreement shows (a
 *    printed letter read as a digit by every reading, one the cancellation check does not try).
 */
import { digitTall, glyphScale, type ZoneGlyph } from './glyph-heights.js';
import { shapeWitness } from './glyph-shapes.js';
import { alignedIndices, bestMatchIndex, FILLER_LIKE, forced } from './repair.js';
import { zoneHolds, zoneShape, type FieldClass, type ZoneReading } from './zone-layout.js';
import type { Engine, EngineLines } from './twins.js';
import { readAlike } from './look-alikes.js';
import { namePlace } from './names.js';

/** A position outside the name where some reading showed another character than the zone's. */
export interface ContestedPosition {
  row: number;
  column: number;
  /** the zone's character */
  char: string;
  /** every character the readings showed there, the zone's first when some reading showed it */
  seen: string[];
}

export interface ZoneCertainty {
  /** positions outside the name where the readings disagree */
  contested: ContestedPosition[];
  /** the zone is not certain outside the name (rule 2): it must not be taken as read */
  uncertain: boolean;
  /** some reading showed another character (or none) at a letter of the name (rule 3) */
  nameUncertain: boolean;
}

/** Past this many other mixes of the characters seen, the zone is taken as uncertain without trying them. */
const MAX_MIXES = 4096;

/** Whether position `column` of line `row` belongs to the holder's name (names.ts, namePlace). */
export const inName = (format: ZoneReading['format'], row: number, column: number): boolean => {
  const name = namePlace(format);
  return row === name.row && column >= name.start;
};

/** What one engine read at `zoneChar`'s place, as the position's class allows. */
function asClassAllows(seen: string, cls: FieldClass, zoneChar: string, engine: Engine): string {
  // The LSTM engine reads runs of fillers as K, L, C… (worker.ts); there its letter is the filler.
  if (zoneChar === '<' && engine === 'lstm' && FILLER_LIKE.has(seen)) return '<';
  return seen === '<' ? '<' : forced(seen, cls);
}

/**
 * For each position of `line`, the characters `text` has beside it that no position is aligned
 * with (an engine that read one glyph as two: seed 11's 2G951CJ read as 2G6951CJ by the LSTM engine
 * and 26951CJ by every other reading, so the 6 aligned and the G, the printed one, went unseen).
 * Fillers and what an engine reads for them stand beside fillers; only letters and digits count.
 */
function insertedBeside(line: string, text: string, aligned: (number | undefined)[]): Map<number, string[]> {
  const columnAt = new Map<number, number>();
  aligned.forEach((at, column) => at !== undefined && columnAt.set(at, column));
  const out = new Map<number, string[]>();
  for (let j = 0; j < text.length; j++) {
    if (columnAt.has(j) || text[j] === '<') continue;
    for (const next of [j - 1, j + 1]) {
      const column = columnAt.get(next);
      if (column !== undefined && line[column] !== '<') out.set(column, [...(out.get(column) ?? []), text[j]!]);
    }
  }
  return out;
}

/** True when some mix of the characters seen at the contested positions, other than the zone's own, holds too. */
function anotherMixHolds(zone: ZoneReading, contested: ContestedPosition[]): boolean {
  const mixes = contested.reduce((n, c) => n * c.seen.length, 1);
  if (mixes > MAX_MIXES) return true;
  const chars = zone.lines.map((l) => [...l]);
  for (let mix = 1; mix < mixes; mix++) {
    let rest = mix;
    for (const c of contested) {
      chars[c.row]![c.column] = c.seen[rest % c.seen.length]!;
      rest = Math.floor(rest / c.seen.length);
    }
    if (zoneHolds(chars.map((l) => l.join('')))) return true;
  }
  return false;
}

/**
 * The certainty of `zone` given what each engine read in each pass made over its image (`passes`,
 * the pass the zone came from among them) and, when measured, the zone's glyphs on that image.
 * See the rule at the top of this file.
 */
export function zoneCertainty(zone: ZoneReading, passes: EngineLines[], glyphs?: ZoneGlyph[][]): ZoneCertainty {
  const shape = zoneShape(zone.format);
  const scale = glyphs ? glyphScale(zone.lines, shape, glyphs) : null;
  const widths = zone.lines.map((l) => l.length);
  const standsDigitTall = (row: number, column: number) =>
    scale !== null && digitTall(scale[widths.slice(0, row).reduce((sum, w) => sum + w, 0) + column]);
  const shapes = shapeWitness(zone.lines, glyphs);
  const seenAt = new Map<string, Set<string>>();
  const ruledOut = new Set<string>();
  let nameUncertain = false;
  for (const pass of passes)
    for (const engine of ['legacy', 'lstm'] as const) {
      const texts = pass[engine].map((l) => l.text);
      zone.lines.forEach((line, row) => {
        const match = bestMatchIndex(line, texts);
        if (match < 0) {
          // A reading that shows nothing like the line is no witness for or against its checked
          // fields. But a reading of every line whose name line is nothing like the zone's
          // disagrees with the name: a name whose fillers were taken as the LSTM engine's C, L and
          // K (tuning seed 17, hard TD3 #16: LOIC<<<… read as LOICCLLL…) differs from the legacy
          // engine's true line in most places, and was called certain.
          if (texts.length >= zone.lines.length && row === namePlace(zone.format).row) nameUncertain = true;
          return;
        }
        const aligned = alignedIndices(line, texts[match]!);
        const besides = insertedBeside(line, texts[match]!, aligned);
        for (let column = 0; column < line.length; column++) {
          const char = line[column]!;
          const at = aligned[column];
          const name = inName(zone.format, row, column);
          if (at === undefined) {
            // A letter of the name some reading lost (SZABO read as SZAOK: the B dropped).
            if (name && char !== '<') nameUncertain = true;
            continue;
          }
          const cls = (shape[row]![column] === 'o' ? 'x' : shape[row]![column]) as FieldClass;
          // A look-alike the reading put beside this character (6 read as G6) shows it too.
          const alike = (besides.get(column) ?? []).map((c) => asClassAllows(c, cls, char, engine)).filter((c) => readAlike(c, char));
          for (const seen of [asClassAllows(texts[match]![at]!, cls, char, engine), ...alike]) {
            if (name) {
              if (seen !== char && !shapes.prefers(row, column, char, seen)) nameUncertain = true;
              continue;
            }
            // A letter where a digit of the zone stands digit-tall is the glyph's digit misread.
            if (/\d/.test(char) && /[A-Z]/.test(seen) && standsDigitTall(row, column)) continue;
            const key = `${row}:${column}`;
            // A character the glyph's shape rules out by the margin is no other reading (glyph-shapes.ts);
            // but the shape alone never stands for a character no reading showed.
            if (shapes.prefers(row, column, char, seen)) {
              ruledOut.add(key);
              continue;
            }
            seenAt.set(key, (seenAt.get(key) ?? new Set()).add(seen));
          }
        }
      });
    }
  const contested: ContestedPosition[] = [];
  let unseen = [...ruledOut].some((key) => !seenAt.has(key));
  for (const [key, seen] of seenAt) {
    const [row, column] = key.split(':').map(Number) as [number, number];
    const char = zone.lines[row]![column]!;
    if (seen.size === 1 && seen.has(char)) continue;
    // A character no reading showed (a repair): nothing but the check digits speaks for it.
    if (!seen.has(char)) unseen = true;
    contested.push({ row, column, char, seen: seen.has(char) ? [char, ...[...seen].filter((c) => c !== char)] : [...seen] });
  }
  contested.sort((a, b) => a.row - b.row || a.column - b.column);
  // A character of a field that may hold letters and digits whose glyph resembles another letter or
  // digit more by the margin: a misreading every reading made, which no agreement shows (rule 4).
  const outshone = zone.lines.some((line, row) =>
    [...line].some((char, column) => {
      const cls = shape[row]![column];
      return (cls === 'x' || cls === 'o') && char !== '<' && shapes.rival(row, column, char) !== undefined;
    }),
  );
  return { contested, uncertain: unseen || outshone || anotherMixHolds(zone, contested), nameUncertain };
}
