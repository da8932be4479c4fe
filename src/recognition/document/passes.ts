/**
 * What the passes over one image decide (docs/document-reading.md, "Document reading", steps 7 to
 * 9 and the certainty rule; pure, no OCR): the worker (worker.ts) adds each pass's reading and asks
 * again, and `scripts/documents/replay.ts` asks the same of the passes a read-rate run dumped, so a
 * rule can be weighed on the tuning seed without running the engines again.
 */
import { zoneCertainty } from './certainty.js';
import type { ZoneGlyph } from './glyph-heights.js';
import { nameByAgreement } from './names.js';
import { zoneFromText } from './repair.js';
import { shapeReading } from './shape-reading.js';
import { MIXED_FIELDS, mixedFields, type ZoneReading } from './zone-layout.js';
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

/** Whether the shapes' reading (shape-reading.ts) shows the zone's letter-and-digit fields as they stand, at their places. */
const shapesReadMixedFields = (zone: ZoneReading, shapes: string) => {
  const lines = shapes.split('\n');
  return MIXED_FIELDS[zone.format].every(({ row, start, end }) => lines[row]?.slice(start, end) === zone.lines[row]!.slice(start, end));
};

/**
 * What the passes made so far over one image decide: a zone read (`certain`, with whether its
 * name is uncertain); a zone confirmed that the certainty rule refuses (`uncertain`: a later pass
 * only adds readings, and another mix that holds stays one, so this image can give no certain
 * zone); or nothing yet (null: the next pass is read).
 */
export function settle(reads: PassRead[]): Settled | null {
  for (const read of reads) {
    const decided = read.zone && decide(reads, read.zone, read);
    if (decided) return decided;
  }
  return byShapes(reads);
}

type Settled = { certain: ZoneReading; nameUncertain: boolean } | { uncertain: ZoneReading };

/** Passes read over an image before the shapes' reading of it is weighed: as many as a zone read from text needs (itself and a confirmation). */
const MIN_PASSES_FOR_SHAPES = 2;

/**
 * Where no pass's text gave a zone another pass confirms, the zone the glyphs' shapes read
 * (shape-reading.ts; docs/document-reading.md, "Document reading", step 7), repaired as an engine's
 * text is, with each pass's LSTM reading as the second opinion in turn (the latest first), and
 * weighed by the same rules over the engines' readings only. It only ever adds a certain zone:
 * one the rules refuse leaves the next pass to be read.
 */
function byShapes(reads: PassRead[]): Settled | null {
  const glyphs = reads[0]?.glyphs;
  const text = reads.length >= MIN_PASSES_FOR_SHAPES ? shapeReading(glyphs) : null;
  if (!text) return null;
  for (const { lines } of [...reads].reverse()) {
    // The repair's bound on characters taken against the second opinion guards an engine's garbled
    // line that holds by chance; the shapes read each glyph on its own, and the engines that
    // disagree with them are weighed below, position by position, by the certainty rule.
    const zone = zoneFromText(text, lines.lstm, glyphs, { maxOverruled: Infinity });
    const decided = zone && decide(reads, zone, { shapes: text });
    if (decided && 'certain' in decided) return decided;
  }
  return null;
}

/**
 * What the passes decide about `zone`, read from one pass's text or by the shapes: null unless it
 * is confirmed (another pass read it, or, for the shapes' zone, the shapes read its letter-and-digit
 * fields as they stand) and its twins were seen as twins.ts asks in the pass it came from (in some
 * pass, for the shapes' zone); otherwise the zone with its name by agreement, certain or not
 * (certainty.ts), weighed against what the engines read in every pass.
 */
function decide(reads: PassRead[], zone: ZoneReading, from: PassRead | { shapes: string }): Settled | null {
  const glyphs = 'shapes' in from ? reads[0]?.glyphs : from.glyphs;
  const passes = reads.map((r) => r.lines);
  const confirmed =
    reads.some((other) => other !== from && confirms(other, zone)) || ('shapes' in from && shapesReadMixedFields(zone, from.shapes));
  // The characters with an uncheckable twin are weighed against every pass made over the image (twins.ts).
  const twinWitnesses = 'shapes' in from ? passes : [from.lines];
  if (!confirmed || !twinWitnesses.some((lines) => twinsConfirmed(zone, lines, passes, glyphs))) return null;
  // No check digit covers the name: the passes made so far vote on it (names.ts).
  const named = nameByAgreement(
    zone,
    reads.map((r) => r.zone),
    reads.flatMap((r) => [engineText(r.lines.legacy), engineText(r.lines.lstm)]),
  );
  // Certain only where the readings agree or the check digits settle what they showed (certainty.ts).
  const certainty = zoneCertainty(named, passes, glyphs);
  return certainty.uncertain ? { uncertain: named } : { certain: named, nameUncertain: certainty.nameUncertain };
}
