/**
 * What the passes over one image decide (docs/document-reading.md, "Document reading", steps 7 and
 * 8 and the certainty rule; pure, no OCR): the worker (worker.ts) adds each pass's reading and asks
 * again, and `scripts/documents/replay.ts` asks the same of the passes a read-rate run dumped, so a
 * rule can be weighed on the tuning seed without running the engines again.
 */
import { zoneCertainty } from './certainty.js';
import type { ZoneGlyph } from './glyph-heights.js';
import { nameByAgreement } from './names.js';
import { zoneFromText } from './repair.js';
import { mixedFields, type ZoneReading } from './zone-layout.js';
import { twinsConfirmed, type EngineLines, type ReadLine } from './twins.js';

/** One pass over an image: the zone its text gives, both engines' raw text, their lines and the zone's glyphs. */
export interface PassRead {
  zone: ZoneReading | null;
  raw: string;
  lines: EngineLines;
  glyphs?: ZoneGlyph[][];
}

/** One pass's text, without spaces, for another pass to confirm a reading with. */
const compact = (text: string) => text.replace(/[ \t]+/g, '');

/** One engine's lines of a pass as one text. */
const engineText = (lines: ReadLine[]) => lines.map((l) => l.text).join('\n');

/** A pass read from both engines' text (the legacy engine's, whose fillers are trusted, first) and lines. */
export function passRead(legacyText: string, lstmText: string, lines: EngineLines, glyphs?: ZoneGlyph[][]): PassRead {
  return { zone: zoneFromText(legacyText, lines.lstm, glyphs), raw: compact(`${legacyText}\n${lstmText}`), lines, glyphs };
}

/**
 * Whether another pass over the same image confirms a zone: it read the same zone, or its raw
 * text (either engine) shows the zone's letter-and-digit fields exactly. The check digits cannot
 * tell every look-alike apart in those fields, two readings at other scales can.
 */
const confirms = (other: PassRead, zone: ZoneReading) =>
  other.zone?.lines.join('\n') === zone.lines.join('\n') || mixedFields(zone).every((field) => other.raw.includes(field));

/**
 * What the passes made so far over one image decide: a zone read (`certain`, with whether its
 * name is uncertain); a zone confirmed that the certainty rule refuses (`uncertain`: a later pass
 * only adds readings, and another mix that holds stays one, so this image can give no certain
 * zone); or nothing yet (null: the next pass is read).
 */
export function settle(reads: PassRead[]): { certain: ZoneReading; nameUncertain: boolean } | { uncertain: ZoneReading } | null {
  for (const read of reads) {
    const zone = read.zone;
    // The characters with an uncheckable twin are weighed against every pass made over the image (twins.ts).
    if (
      !zone ||
      !reads.some((other) => other !== read && confirms(other, zone)) ||
      !twinsConfirmed(
        zone,
        read.lines,
        reads.map((r) => r.lines),
        read.glyphs,
      )
    )
      continue;
    // No check digit covers the name: the passes made so far vote on it (names.ts).
    const named = nameByAgreement(
      zone,
      reads.map((r) => r.zone),
      reads.flatMap((r) => [engineText(r.lines.legacy), engineText(r.lines.lstm)]),
    );
    // Certain only where the readings agree or the check digits settle what they showed (certainty.ts).
    const certainty = zoneCertainty(
      named,
      reads.map((r) => r.lines),
      read.glyphs,
    );
    return certainty.uncertain ? { uncertain: named } : { certain: named, nameUncertain: certainty.nameUncertain };
  }
  return null;
}
