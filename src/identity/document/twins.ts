/**
 * The rule for look-alike twins (README, "Document reading"; pure, no OCR). In the fields that may
 * hold letters and digits (document number, optional data), G and 6, L and 1, S and 8, U and 0
 * weigh the same modulo 10: a twin read for the printed character keeps every check digit holding,
 * and both engines can see the same wrong one (measured: `9G3726777` read as `963726777` by both,
 * the legacy engine as surely as it read true 6s). There the LSTM engine decides: such a character
 * counts only when the LSTM engine read it, and never its twin, in the pass the zone comes from
 * and in the pass that confirms it.
 */
import type { ReadLine } from './confidence.js';
import { alignedIndices, bestMatchIndex, checkableLookAlike, MIXED_FIELDS, UNCHECKABLE, type ZoneReading } from './repair.js';

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
const sawIt = (s: TwinSighting) => s.seen !== undefined && (s.seen === s.char || s.seen === checkableLookAlike(s.char));

/**
 * Whether the zone's characters with an uncheckable twin may count, given what the engines read in
 * the pass the zone comes from (`read`) and in every pass made over the same image (`passes`, `read`
 * among them): the LSTM engine read none of them as its twin in any pass and each of them as
 * itself (or a look-alike the check digits tell apart, O for 0) in at least one, and the legacy
 * engine saw it, its twin or such a look-alike in `read` (it reads OCR-B's G as 6 too often to have
 * a say between twins). No confidence decides here: the LSTM engine read a G as 6 at 98 in one pass
 * and as G in others (measured, seed 5309, hard #0); a twin read in any pass is what the rule
 * looks for (seed 4711, phone photo #19: 6 in the first and third pass, G in the second).
 */
export function twinsConfirmed(zone: ZoneReading, read: EngineLines, passes: EngineLines[]): boolean {
  const lstm = passes.map((p) => twinSightings(zone, { legacy: [], lstm: p.lstm }).filter((s) => s.engine === 'lstm'));
  return twinSightings(zone, read).every((s) => {
    if (s.engine === 'legacy') return sawIt(s) || s.seen === UNCHECKABLE[s.char];
    const there = lstm.map((sightings) => sightings.find((o) => o.row === s.row && o.column === s.column));
    return there.every((o) => o?.seen !== UNCHECKABLE[s.char]) && there.some((o) => o !== undefined && sawIt(o));
  });
}
