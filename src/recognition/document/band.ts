/**
 * Finds the machine-readable zone's lines in a grey image (pure; no OCR). The zone is the one
 * place on a document where 30 to 44 characters of one size stand in a row at a fixed pitch, two
 * or three such rows above each other: dark marks are found against their neighbourhood (so a
 * tinted page, a shadow or a guilloche does not matter), grouped into connected components, the
 * character-sized ones into rows, and the longest rows that stand together, with blank paper
 * between them, are the zone. Each row's slope comes from its characters' centres, so a tilted or
 * slightly keystoned photo is levelled per row (levelled-zone.ts) rather than by one guess for the
 * whole page.
 */

import { components, darkMarks, type Glyph, type Gray } from './marks.js';

export interface ZoneRow {
  glyphs: Glyph[];
  /** y = intercept + slope × x through the glyph centres */
  slope: number;
  intercept: number;
  /** median glyph height in pixels */
  height: number;
  left: number;
  right: number;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? 0;
};

/** Least-squares line through the glyph centres. */
function fit(glyphs: Glyph[]): { slope: number; intercept: number } {
  const n = glyphs.length;
  const mx = glyphs.reduce((s, g) => s + g.cx, 0) / n;
  const my = glyphs.reduce((s, g) => s + g.cy, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const g of glyphs) {
    sxy += (g.cx - mx) * (g.cy - my);
    sxx += (g.cx - mx) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { slope, intercept: my - slope * mx };
}

/** A row being built: its glyphs, and the line through its last few glyphs that the next one must lie on. */
interface RowInProgress {
  glyphs: Glyph[];
  slope: number;
  intercept: number;
  /** the right edge of its last glyph */
  end: number;
}

/** The line a row's next glyph must lie on: through its last six glyphs, so a tilted row is followed. */
function extend(row: RowInProgress, g: Glyph): void {
  row.glyphs.push(g);
  row.end = g.x1;
  const tail = row.glyphs.slice(-6);
  const line = tail.length >= 3 ? fit(tail) : { slope: 0, intercept: g.cy };
  row.slope = line.slope;
  row.intercept = line.intercept;
}

/**
 * Rows of character-sized glyphs of about `size` pixels high: each glyph joins the row whose line
 * passes through it and whose last glyph is within a few character widths, so two columns of
 * text at one height stay apart. The glyphs come left to right, so a row whose last glyph lies
 * further left than any later glyph could reach is closed for good, and each row keeps the line
 * through its tail instead of fitting it again for every glyph: on a photo of noise, thousands of
 * glyphs against thousands of rows took seconds (docs/document-reading.md, "Document reading").
 */
function rowsOfSize(glyphs: Glyph[], size: number): ZoneRow[] {
  const chars = glyphs
    .filter((g) => {
      const h = g.y1 - g.y0;
      const w = g.x1 - g.x0;
      // The filler '<' is lower than a capital; a blurred character grows a little.
      return h >= size * 0.4 && h <= size * 1.5 && w <= size * 1.3 && w >= 1;
    })
    .sort((a, b) => a.cx - b.cx);
  const reach = size * 2.5;
  // A later glyph starts at most half its greatest width (size × 1.3) left of its centre.
  const widest = size * 0.65;
  const rows: RowInProgress[] = [];
  let open: RowInProgress[] = [];
  for (const g of chars) {
    open = open.filter((row) => g.cx - widest - row.end <= reach);
    let best: RowInProgress | undefined;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const row of open) {
      if (g.x0 - row.end > reach) continue;
      const distance = Math.abs(row.slope * g.cx + row.intercept - g.cy);
      if (distance < size * 0.45 && distance < bestDistance) {
        best = row;
        bestDistance = distance;
      }
    }
    if (best) extend(best, g);
    else {
      const row: RowInProgress = { glyphs: [], slope: 0, intercept: g.cy, end: g.x1 };
      extend(row, g);
      rows.push(row);
      open.push(row);
    }
  }
  return rows
    .map((r) => r.glyphs)
    .filter((r) => r.length >= 12)
    .map((r) => {
      // The filler's height says little about the row: the median of the taller glyphs does.
      const heights = r.map((g) => g.y1 - g.y0);
      const tall = heights.filter((h) => h >= median(heights) * 0.8);
      return { glyphs: r, ...fit(r), height: median(tall), left: r[0]!.x0, right: r[r.length - 1]!.x1 };
    });
}

/**
 * The most dark marks, as a share of the pixels, the strip between two rows may hold for them to
 * be two rows of one zone: ICAO 9303 prints the zone's rows on blank paper, while noise shows rows
 * of character-sized marks spaced like a zone with as many marks between them as anywhere. Chosen
 * from the table of `npm run documents:band-table` (docs/benchmarks.md, "Band finder"): on seeds
 * 7211 and 7307, at most 0.6 % between the rows of each of 360 generated documents' zones (0.2 %
 * but for 6 hard photos), at least 26.8 % between the zone-like rows found on 34 of 120 noise
 * images; 10 % stands well clear of both.
 */
export const MAX_MARKS_BETWEEN_ROWS = 0.1;

/**
 * The zone's rows, top to bottom: two or three rows of 25 or more glyphs, as long as each other,
 * spaced as ICAO 9303 spaces them (about 1.5 to 2 character heights apart) and with blank paper
 * between them (at most `maxMarksBetweenRows` of the pixels there dark marks). Several character
 * sizes are tried, as the photo's scale is not known. Null when nothing zone-like is there.
 */
export function findZoneRows(img: Gray, maxMarksBetweenRows = MAX_MARKS_BETWEEN_ROWS): ZoneRow[] | null {
  const marks = markedPage(img);
  const glyphs = components(marks.mask, img.width, img.height);
  // A size both counts propose is grouped into rows once (noise goes through both).
  const built = new Map<number, ZoneRow[]>();
  const rowsAt = (size: number) => built.get(size) ?? built.set(size, rowsOfSize(glyphs, size)).get(size)!;
  const zone = (sizes: number[]) => zoneOfSizes(rowsAt, sizes, (prev, next) => marksBetweenRows(marks, prev, next) <= maxMarksBetweenRows);
  // The sizes counted height by height first; only when none of them holds a zone, heights
  // counted with their neighbours: on a blurred photo whose zone is 20 px or more high the glyphs'
  // heights spread over several pixels and the fillers stand lower, so no one height reaches 20
  // glyphs (measured: five phone and hard photos of TD2 cards, seeds 202 and 4711, whose zone was
  // found at 1,000 px but not at 1,200, each read before by the whole-page passes alone). The exact count stays
  // first so that every zone found before is found the same way.
  return zone(candidateSizes(glyphs, 0)) ?? zone(candidateSizes(glyphs, 0.08));
}

/** An image's dark marks (darkMarks) with the image's size. */
interface MarkedPage {
  mask: Uint8Array;
  width: number;
  height: number;
}

const markedPage = (img: Gray): MarkedPage => ({
  mask: darkMarks(img, Math.max(8, Math.round(img.width / 60)), 12),
  width: img.width,
  height: img.height,
});

/**
 * The share of dark-mark pixels in the strip between two rows, where both rows stand: a strip
 * 0.3 character heights high midway between their lines (at least one pixel). Between the rows
 * of a zone, about 1.65 character heights apart (ICAO 9303), it keeps 0.15 heights clear of
 * either row's glyphs, blur included (the heights are the glyphs' own); rows closer than 1.3
 * heights reach into it with their own glyphs.
 */
function marksBetweenRows(marks: MarkedPage, upper: ZoneRow, lower: ZoneRow): number {
  const lineAt = (r: ZoneRow, x: number) => r.intercept + r.slope * x;
  const half = Math.max(0.5, 0.15 * ((upper.height + lower.height) / 2));
  const left = Math.max(0, Math.ceil(Math.max(upper.left, lower.left)));
  const right = Math.min(marks.width, Math.floor(Math.min(upper.right, lower.right)));
  let marked = 0;
  let pixels = 0;
  for (let x = left; x < right; x++) {
    const middle = (lineAt(upper, x) + lineAt(lower, x)) / 2;
    const bottom = Math.min(marks.height - 1, Math.floor(middle + half));
    for (let y = Math.max(0, Math.ceil(middle - half)); y <= bottom; y++) {
      pixels++;
      marked += marks.mask[y * marks.width + x]!;
    }
  }
  return pixels > 0 ? marked / pixels : 1;
}

/**
 * The share of dark marks between each two neighbouring rows of a zone found on `img`, top to
 * bottom (the measure MAX_MARKS_BETWEEN_ROWS bounds; for the table it was chosen from).
 */
export function marksBetweenZoneRows(img: Gray, rows: ZoneRow[]): number[] {
  const marks = markedPage(img);
  return rows.slice(1).map((next, i) => marksBetweenRows(marks, rows[i]!, next));
}

function zoneOfSizes(
  rowsAt: (size: number) => ZoneRow[],
  sizes: number[],
  blankBetween: (upper: ZoneRow, lower: ZoneRow) => boolean,
): ZoneRow[] | null {
  let best: { rows: ZoneRow[]; score: number } | null = null;
  for (const size of sizes) {
    const rows = rowsAt(size).filter((r) => r.glyphs.length >= 25);
    rows.sort((a, b) => a.intercept - b.intercept);
    for (let i = 0; i < rows.length; i++) {
      const group = [rows[i]!];
      for (let j = i + 1; j < rows.length && group.length < 3; j++) {
        const prev = group[group.length - 1]!;
        const next = rows[j]!;
        const mid = (Math.max(prev.left, next.left) + Math.min(prev.right, next.right)) / 2;
        const gap = next.intercept + next.slope * mid - (prev.intercept + prev.slope * mid);
        const overlap = Math.min(prev.right, next.right) - Math.max(prev.left, next.left);
        const span = Math.max(prev.right - prev.left, next.right - next.left);
        if (gap < prev.height * 1.1 || gap > prev.height * 3) continue;
        if (overlap < span * 0.8) continue;
        if (!blankBetween(prev, next)) continue;
        group.push(next);
      }
      if (group.length < 2) continue;
      const score = group.reduce((s, r) => s + r.glyphs.length, 0);
      if (!best || score > best.score) best = { rows: group, score };
    }
  }
  return best?.rows ?? null;
}

/**
 * The glyph heights that occur often enough to be a row of text: candidates for the zone's
 * character size. A glyph counts for every height within `spread` of its own (a share of the
 * height, at least one pixel) when `spread` is above 0.
 */
function candidateSizes(glyphs: Glyph[], spread: number): number[] {
  const counts = new Map<number, number>();
  for (const g of glyphs) {
    const h = g.y1 - g.y0;
    if (h < 6) continue;
    const reach = spread > 0 ? Math.max(1, Math.round(h * spread)) : 0;
    for (let near = h - reach; near <= h + reach; near++) counts.set(near, (counts.get(near) ?? 0) + 1);
  }
  const sizes = [...counts.entries()]
    .filter(([h, n]) => h >= 6 && n >= 20)
    .sort((a, b) => b[1] - a[1])
    .map(([h]) => h);
  // Neighbouring heights are one size blurred: keep one of each few pixels.
  const chosen: number[] = [];
  for (const h of sizes) if (!chosen.some((c) => Math.abs(c - h) <= Math.max(2, c * 0.15))) chosen.push(h);
  return chosen.slice(0, 4);
}
