/**
 * The rule for look-alike twins (docs/document-reading.md, "Document reading"; pure, no OCR). In the fields that may
 * hold letters and digits (document number, optional data), G and 6, L and 1, S and 8, U and 0
 * weigh the same modulo 10: a twin read for the printed character keeps every check digit holding,
 * and both engines can see the same wrong one (measured: `9G3726777` read as `963726777` by both,
 * the legacy engine as surely as it read true 6s). Such a character counts only when the LSTM
 * engine read it, and a digit only when no engine read its letter twin in any pass over the image.
 */
import type { ReadLine } from './confidence.js';
import type { ZoneGlyph } from './glyph-heights.js';
import { shapeWitness } from './glyph-shapes.js';
import { alignedIndices, bestMatchIndex } from './repair.js';
import { MIXED_FIELDS, type ZoneReading } from './zone-layout.js';
import { checkableLookAlikes, UNCHECKABLE } from './look-alikes.js';

export type { ReadLine } from './confidence.js';

export type Engine = 'legacy' | 'lstm';

/** What each engine read in one pass, line by line. */
export type EngineLines = Record<Engine, ReadLine[]>;

/** One character with an uncheckable twin, and what one engine saw in its place. */
export interface TwinSighting {
  row: number;
  column: number;
  /** the zone's character */
  char: string;
  engine: Engine;
  /** the engine's character aligned with it, or undefined where it saw none */
  seen?: string;
  /** the engine's confidence in `seen` */
  confidence?: number;
}

/**
 * Every character of the zone's mixed fields whose twin the check digits cannot tell from it, with
 * what each engine saw there (its line that matches the zone's line best, aligned character by
 * character) and how confident it was.
 */
export function twinSightings(zone: ZoneReading, engines: EngineLines): TwinSighting[] {
  const sightings: TwinSighting[] = [];
  for (const engine of ['legacy', 'lstm'] as const) {
    const lines = engines[engine];
    const texts = lines.map((l) => l.text);
    for (const { row, start, end } of MIXED_FIELDS[zone.format]) {
      const line = zone.lines[row]!;
      const match = bestMatchIndex(line, texts);
      const aligned = match < 0 ? [] : alignedIndices(line, texts[match]!);
      for (let column = start; column < end; column++) {
        const char = line[column]!;
        if (UNCHECKABLE[char] === undefined) continue;
        const at = aligned[column];
        sightings.push(
          at === undefined
            ? { row, column, char, engine }
            : { row, column, char, engine, seen: texts[match]![at], confidence: lines[match]!.confidences[at] },
        );
      }
    }
  }
  return sightings;
}

/** The engine saw the character itself, or a look-alike the check digits tell apart from it (O for 0): never its twin. */
const sawIt = (s: TwinSighting) => s.seen !== undefined && (s.seen === s.char || checkableLookAlikes(s.char).includes(s.seen));

/**
 * Whether the zone's characters with an uncheckable twin may count, given what the engines read in
 * the pass the zone comes from (`read`) and in every pass made over the same image (`passes`, `read`
 * among them):
 * - the legacy engine saw it, its twin or a look-alike the check digits tell apart (O for 0) in
 *   `read` (it reads OCR-B's G as 6 too often to have a say between twins there);
 * - the LSTM engine read it (or such a look-alike) in at least one pass;
 * - a digit counts only when no engine read its letter twin in any pass: the engines read a
 *   printed letter as its digit twin often (the legacy engine a third of the G it saw, the LSTM
 *   engine even at confidence 98), a printed digit as its letter twin almost never (docs/document-reading.md, the
 *   measured table). So a letter read in one pass outweighs its digit read in others (seed 4711,
 *   phone photo #19: 6 in three passes, G in two), while a digit read once among letters does not
 *   (seed 4711, clean #7: G in four passes, 6 in one).
 * No confidence decides here: it does not separate a twin from the printed character. The glyph's
 * shape does where it resembles the zone's character more than its twin by the shape witness's
 * margin (glyph-shapes.ts, `glyphs` measured on the image): then the twin read in some pass is no
 * other reading, as in the certainty rule, and the LSTM engine need not have read the character
 * itself (the certainty rule still wants some reading to have shown it: the shape never stands alone).
 */
export function twinsConfirmed(zone: ZoneReading, read: EngineLines, passes: EngineLines[], glyphs?: ZoneGlyph[][]): boolean {
  const everywhere = passes.flatMap((p) => twinSightings(zone, p));
  const shapes = shapeWitness(zone.lines, glyphs);
  return twinSightings(zone, read).every((s) => {
    const twin = UNCHECKABLE[s.char]!;
    // A digit whose glyph resembles its letter twin more, by any margin: the readings agreeing on
    // the digit say nothing between the twins (they read a printed G as 6 in every pass, fresh seed
    // 8209, hard TD3 #24: `6585G3C5R` read `658563C5R`, the glyph G 0.92, 6 0.83).
    if (/\d/.test(s.char) && shapes.leansTo(s.row, s.column, s.char, twin)) return false;
    if (s.engine === 'legacy') return sawIt(s) || s.seen === twin;
    if (shapes.prefers(s.row, s.column, s.char, twin)) return true;
    const here = everywhere.filter((o) => o.row === s.row && o.column === s.column);
    const seenByLstm = here.some((o) => o.engine === 'lstm' && sawIt(o));
    const letterTwinSeen = /\d/.test(s.char) && here.some((o) => o.seen === twin);
    return seenByLstm && !letterTwinSeen;
  });
}
