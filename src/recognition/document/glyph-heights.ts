/**
 * A third witness for the letter/digit look-alikes (pure; no OCR): how tall each glyph of the zone
 * stands. In the OCR-B the zone is printed in, digits stand taller than capitals (Debian's
 * fonts-ocr-b: 0 is 236 units high, O 220; 6 235, G 220; 8 236, S 219, B 210). The difference is
 * measured on each zone itself, never assumed: the glyphs whose class the zone fixes (dates and
 * check digits are digits; the document code, countries, sex and names are letters) give each
 * row's letter height, how that height changes along the row (a photo taken at a slant) and how
 * much taller the digits stand. Where the digits do not stand clearly taller, or the glyphs'
 * heights scatter too much to tell (a blurred photo), nothing is said. The thresholds come from
 * the table `npm run documents:read-rate` prints (docs/document-reading.md, "Document reading").
 */
import { components, type Glyph, type Gray } from './marks.js';
import { stripLayout } from './levelled-zone.js';
import { median } from './band.js';

/** The OCR-B characters a glyph resembles most, each with its correlation (−1 … 1; glyph-shapes.ts). */
export type Likeness = Record<string, number>;

/** One glyph of a levelled row: its centre and size in the levelled page's pixels. */
export interface ZoneGlyph {
  cx: number;
  width: number;
  height: number;
  /** the OCR-B characters it resembles most (glyph-shapes.ts), when its shape could be measured */
  likeness?: Likeness;
}

/**
 * The glyph heights are used only where the digits stand at least this much taller than the
 * letters (relative to the letters' height). A typeface whose digits and capitals are equally tall
 * gives no witness, and the rule is then silent.
 */
const MIN_DIGIT_EXCESS = 0.04;
/**
 * And only where the glyphs whose class is fixed scatter around the fitted heights by at most this
 * share of the digits' excess (root mean square): beyond it a glyph's height says too little.
 */
const MAX_SCATTER = 0.3;
/**
 * A glyph counts as digit-tall from this far up the way from its row's letter height to its digit
 * height (0 to 1). Chosen from the table in docs/document-reading.md (three seeds, 360 documents): none of the
 * 420 letters of document numbers measured above 0.68, most digits at 0.8 or more; some digits
 * measure as low as letters (4s and 6s, their tops a point and a curve), so being short says
 * nothing and is never used.
 */
export const DIGIT_FROM = 0.8;

/** The ink boxes of each row's glyphs on a page made by levelledZone with `rows` rows at `capHeight` (y from the top of the row's strip), left to right. */
export function zoneGlyphBoxes(zone: Gray, rows: number, capHeight: number): Glyph[][] {
  const layout = stripLayout(capHeight);
  return Array.from({ length: rows }, (_, row) => {
    const top = layout.top(row);
    const strip = zone.data.subarray(top * zone.width, (top + layout.height) * zone.width);
    const mask = strip.map((v) => (v < 128 ? 1 : 0));
    return (
      components(mask, zone.width, layout.height)
        // Specks and broken strokes are left out; fillers stay (their places fix the pitch), but
        // glyphScale never measures one.
        .filter((g) => g.y1 - g.y0 > capHeight * 0.5)
        .sort((a, b) => a.cx - b.cx)
    );
  });
}

/** The glyphs of each row of a page made by levelledZone with `rows` rows at `capHeight`. */
export function zoneGlyphs(zone: Gray, rows: number, capHeight: number): ZoneGlyph[][] {
  return zoneGlyphBoxes(zone, rows, capHeight).map((row) => row.map((g) => ({ cx: g.cx, width: g.x1 - g.x0, height: g.y1 - g.y0 })));
}

/**
 * The glyph standing alone at each of the row's `width` character places, or undefined. Zone
 * characters stand at a fixed pitch and every place is printed (fillers included), so a row of
 * `width` glyphs evenly spaced is placed in order; otherwise the first and last glyph fix the
 * pitch, and a glyph off its place, too wide for one (two run together), or sharing its place is
 * left out. Null when too few glyphs fall on their places to trust the pitch.
 */
export function glyphsByPlace(row: ZoneGlyph[], width: number): (ZoneGlyph | undefined)[] | null {
  if (row.length < width * 0.8) return null;
  // One glyph a place, in a run whose steps change little and none too wide: placed in order. A
  // photo in perspective narrows the pitch along the row (tuning seed 12, phone photos: 46 px at the
  // left, 41 at the right), which one pitch misplaces by half a place in the middle.
  if (row.length === width && width > 1) {
    const steps = row.slice(1).map((g, i) => g.cx - row[i]!.cx);
    const step = median(steps);
    if (steps.every((s) => s > step * 0.75 && s < step * 1.25) && row.every((g) => g.width <= step * 0.95)) return [...row];
  }
  const first = row[0]!.cx;
  const pitch = (row[row.length - 1]!.cx - first) / (width - 1);
  if (!(pitch > 0)) return null;
  const places: (ZoneGlyph | undefined)[] = new Array(width).fill(undefined);
  const shared = new Set<number>();
  let placed = 0;
  for (const g of row) {
    const place = Math.round((g.cx - first) / pitch);
    if (place < 0 || place >= width || Math.abs(g.cx - first - place * pitch) > pitch * 0.25 || g.width > pitch * 0.95) continue;
    placed++;
    if (places[place]) shared.add(place);
    places[place] = g;
  }
  for (const place of shared) places[place] = undefined;
  return placed >= width * 0.8 ? places : null;
}

/** Least squares: the x minimising |A x − b|, or null when A's columns do not determine it. */
function leastSquares(rows: number[][], b: number[]): number[] | null {
  const n = rows[0]?.length ?? 0;
  const m = Array.from({ length: n }, (_, i) => [
    ...Array.from({ length: n }, (_, j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    rows.reduce((s, r, k) => s + r[i]! * b[k]!, 0),
  ]);
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(m[k]![i]!) > Math.abs(m[pivot]![i]!)) pivot = k;
    [m[i], m[pivot]] = [m[pivot]!, m[i]!];
    if (Math.abs(m[i]![i]!) < 1e-9) return null;
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const f = m[k]![i]! / m[i]![i]!;
      for (let j = i; j <= n; j++) m[k]![j]! -= f * m[i]![j]!;
    }
  }
  return m.map((r, i) => r[n]! / r[i]!);
}

/** Where a glyph stands between the letters' height (0) and the digits' (1), per zone position; null where the heights cannot tell. */
export type GlyphScale = (number | undefined)[];

/** The fit behind a GlyphScale: the digits' excess over the letters' height, and the scatter around the fit as a share of that excess. */
export interface GlyphMeasure {
  scale: GlyphScale;
  excess: number;
  scatter: number;
}

/**
 * Each position's height on the scale from the row's letters (0) to its digits (1), for a reading
 * `lines` of the zone whose field classes are `shape` (zone-layout.ts: d digit, c check digit, a letter,
 * n name, f sex; others unknown), measured on `glyphs` (zoneGlyphs), with the digits' excess and
 * the scatter (glyphScale applies the limits). The model: a glyph's height is its row's letter
 * height, plus a slope along the rows (the same for all: a slanted photo), plus the digits' excess
 * where it is a digit; fitted to the glyphs whose class the shape fixes. Null when the glyphs do
 * not match the reading's rows or too few glyphs of each class stand alone.
 */
export function measureGlyphs(lines: string[], shape: string[], glyphs: ZoneGlyph[][]): GlyphMeasure | null {
  if (glyphs.length !== lines.length) return null;
  const placed = lines.map((line, r) => glyphsByPlace(glyphs[r]!, line.length));
  if (placed.some((p) => p === null)) return null;
  // Fixed-class glyphs: [row, x, height, digit].
  const known: { row: number; x: number; h: number; digit: number }[] = [];
  lines.forEach((line, r) =>
    [...line].forEach((c, i) => {
      const g = placed[r]![i];
      const cls = shape[r]![i];
      if (!g || c === '<') return;
      if ((cls === 'd' || cls === 'c') && /\d/.test(c)) known.push({ row: r, x: g.cx, h: g.height, digit: 1 });
      if ((cls === 'a' || cls === 'n' || cls === 'f') && /[A-Z]/.test(c)) known.push({ row: r, x: g.cx, h: g.height, digit: 0 });
    }),
  );
  const rowsWithTwo = lines.map((_, r) => known.filter((k) => k.row === r).length >= 2);
  const used = known.filter((k) => rowsWithTwo[k.row]);
  if (used.filter((k) => k.digit).length < 3 || used.filter((k) => !k.digit).length < 3) return null;
  const rowIndex = lines.map((_, r) => rowsWithTwo.slice(0, r).filter(Boolean).length);
  const rowCount = rowsWithTwo.filter(Boolean).length;
  // Columns: one letter height per row, the slope along the row, the digits' excess.
  const design = used.map((k) => [...Array.from({ length: rowCount }, (_, j) => (j === rowIndex[k.row] ? 1 : 0)), k.x, k.digit]);
  const fit = leastSquares(
    design,
    used.map((k) => k.h),
  );
  if (!fit) return null;
  const slope = fit[rowCount]!;
  const excess = fit[rowCount + 1]!;
  const letterHeight = (r: number) => fit[rowIndex[r]!]!;
  const meanLetter = used.reduce((s, k) => s + letterHeight(k.row), 0) / used.length;
  const residuals = used.map((k) => k.h - letterHeight(k.row) - slope * k.x - excess * k.digit);
  const scatter = Math.sqrt(residuals.reduce((s, e) => s + e * e, 0) / residuals.length);
  const scale = lines.flatMap((line, r) =>
    [...line].map((_, i) => {
      const g = placed[r]![i];
      return g && rowsWithTwo[r] ? (g.height - letterHeight(r) - slope * g.cx) / excess : undefined;
    }),
  );
  return { scale, excess: excess / meanLetter, scatter: excess > 0 ? scatter / excess : Number.POSITIVE_INFINITY };
}

/** measureGlyphs' scale where the digits stand clearly taller and the heights scatter little; else null. */
export function glyphScale(lines: string[], shape: string[], glyphs: ZoneGlyph[][]): GlyphScale | null {
  const measured = measureGlyphs(lines, shape, glyphs);
  return measured && measured.excess >= MIN_DIGIT_EXCESS && measured.scatter <= MAX_SCATTER ? measured.scale : null;
}

/** Whether a position's place on the scale says it is a digit. */
export const digitTall = (scale: number | undefined) => scale !== undefined && scale >= DIGIT_FROM;
