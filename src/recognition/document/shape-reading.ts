/**
 * The zone as the glyphs' shapes read it (pure; no OCR): a third reader beside Tesseract's two
 * engines, for the photos whose text neither engine reads closely enough for the repair to reach
 * (docs/document-reading.md, "Document reading", step 7). Each glyph of the zone levelled at 40 px
 * already carries how much it resembles each OCR-B character (glyph-shapes.ts); read at its place
 * (glyph-heights.ts, glyphsByPlace), the likeliest character the place's class allows (a digit in
 * a date, a letter in a country code) is the shape's reading of it.
 *
 * This reading only proposes a zone: the repair (repair.ts) and every rule after it weigh it as
 * they weigh an engine's text (passes.ts), and the certainty rule (certainty.ts) counts only what
 * the engines read, never the shapes, so no character stands on the shape alone.
 */
import { glyphsByPlace, type ZoneGlyph } from './glyph-heights.js';
import { classHolds, SHAPES, type ZoneFormat } from './zone-layout.js';

/** The formats a zone of these rows may be, the one whose width is nearest the rows' glyph count first. */
function formatsOf(glyphs: ZoneGlyph[][]): ZoneFormat[] {
  const formats: ZoneFormat[] = glyphs.length === 3 ? ['TD1'] : glyphs.length === 2 ? ['TD3', 'TD2'] : [];
  const count = glyphs[0]?.length ?? 0;
  const off = (format: ZoneFormat) => Math.abs(SHAPES[format][0]!.length - count);
  return formats.sort((a, b) => off(a) - off(b));
}

/** One row read by its glyphs' shapes at `width` places under the classes `shape`, or null where a place has no measured glyph. */
function rowByShape(row: ZoneGlyph[], shape: string): string | null {
  const places = glyphsByPlace(row, shape.length);
  if (!places) return null;
  let text = '';
  for (const [column, glyph] of places.entries()) {
    const likeness = glyph?.likeness;
    if (!likeness) return null;
    const ranked = Object.keys(likeness).sort((a, b) => likeness[b]! - likeness[a]!);
    // Where no character the likeness holds is allowed, the place is read as the likeliest of all,
    // and the repair forces it into its class as it does an engine's character.
    text += ranked.find((char) => classHolds(shape[column]!, char)) ?? ranked[0]!;
  }
  return text;
}

/**
 * The zone's text as the shapes read it, one line per row, in the first format whose every place
 * has a measured glyph; null when no format fits the glyphs.
 */
export function shapeReading(glyphs: ZoneGlyph[][] | undefined): string | null {
  if (!glyphs) return null;
  for (const format of formatsOf(glyphs)) {
    const lines = SHAPES[format].map((shape, row) => rowByShape(glyphs[row]!, shape));
    if (lines.every((l) => l !== null)) return lines.join('\n');
  }
  return null;
}
