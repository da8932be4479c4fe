/**
 * Finds the machine-readable zone's lines in a grey image (pure; no OCR). The zone is the one
 * place on a document where 30 to 44 characters of one size stand in a row at a fixed pitch, two
 * or three such rows above each other: dark marks are found against their neighbourhood (so a
 * tinted page, a shadow or a guilloche does not matter), grouped into connected components, the
 * character-sized ones into rows, and the longest rows that stand together are the zone. Each
 * row's slope comes from its characters' centres, so a tilted or slightly keystoned photo is
 * levelled per row rather than by one guess for the whole page.
 */

export interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

interface Glyph {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
}

interface ZoneRow {
  glyphs: Glyph[];
  /** y = intercept + slope × x through the glyph centres */
  slope: number;
  intercept: number;
  /** median glyph height in pixels */
  height: number;
  left: number;
  right: number;
}

/**
 * Dark marks: pixels darker than the mean of their neighbourhood (a box about `radius` pixels
 * around) by more than `contrast` grey levels. An integral image makes it linear in the pixels.
 */
function darkMarks(img: Gray, radius: number, contrast: number): Uint8Array {
  const { data, width: w, height: h } = img;
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(h, y + radius + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(w, x + radius + 1);
      const sum = integral[y1 * (w + 1) + x1]! - integral[y0 * (w + 1) + x1]! - integral[y1 * (w + 1) + x0]! + integral[y0 * (w + 1) + x0]!;
      const mean = sum / ((x1 - x0) * (y1 - y0));
      if (data[y * w + x]! < mean - contrast) out[y * w + x] = 1;
    }
  }
  return out;
}

/** Bounding boxes of the 8-connected components of `mask`. */
export function components(mask: Uint8Array, width: number, height: number): Glyph[] {
  const label = new Int32Array(width * height);
  const out: Glyph[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start]) continue;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    label[start] = 1;
    stack.push(start);
    let pixels = 0;
    while (stack.length) {
      const p = stack.pop()!;
      pixels++;
      const x = p % width;
      const y = (p - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (mask[q] && !label[q]) {
            label[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    // Specks are no characters.
    if (pixels >= 6) out.push({ x0, y0, x1: x1 + 1, y1: y1 + 1, cx: (x0 + x1 + 1) / 2, cy: (y0 + y1 + 1) / 2 });
  }
  return out;
}

const median = (xs: number[]) => {
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
 * glyphs against thousands of rows took seconds (README, "Document reading").
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
 * The zone's rows, top to bottom: two or three rows of 25 or more glyphs, as long as each other
 * and spaced as ICAO 9303 spaces them (about 1.5 to 2 character heights apart). Several
 * character sizes are tried, as the photo's scale is not known. Null when nothing zone-like is there.
 */
export function findZoneRows(img: Gray): ZoneRow[] | null {
  const mask = darkMarks(img, Math.max(8, Math.round(img.width / 60)), 12);
  const glyphs = components(mask, img.width, img.height);
  // The sizes counted height by height first; only when none of them holds a zone, heights
  // counted with their neighbours: on a blurred photo whose zone is 20 px or more high the glyphs'
  // heights spread over several pixels and the fillers stand lower, so no one height reaches 20
  // glyphs (measured: five phone and hard photos of TD2 cards, seeds 202 and 4711, whose zone was
  // found at 1,000 px but not at 1,200, each read before by the whole-page passes alone). The exact count stays
  // first so that every zone found before is found the same way.
  return zoneOfSizes(glyphs, candidateSizes(glyphs, 0)) ?? zoneOfSizes(glyphs, candidateSizes(glyphs, 0.08));
}

function zoneOfSizes(glyphs: Glyph[], sizes: number[]): ZoneRow[] | null {
  let best: { rows: ZoneRow[]; score: number } | null = null;
  for (const size of sizes) {
    const rows = rowsOfSize(glyphs, size).filter((r) => r.glyphs.length >= 25);
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

/**
 * The zone's rows cut out along their own lines and stacked, level, on a white page: each row is
 * sampled (bilinear) along the line through its glyph centres, scaled so its characters are
 * `capHeight` pixels high, and stretched to full contrast. `scale` maps the rows' coordinates
 * (found on a smaller copy) onto `img`.
 */
export function levelledZone(img: Gray, rows: ZoneRow[], scale: number, capHeight: number): Gray {
  const layout = stripLayout(capHeight);
  // One zoom for every row, so a glyph's height can be compared across rows (glyph-heights.ts).
  const height = median(rows.map((r) => r.height)) * scale;
  const zoom = capHeight / height;
  const strips = rows.map((r) => {
    // Little beyond the first and last glyph: past it may be the document's edge, which the OCR
    // would read as a character; the page this is stacked on gives the margin the OCR wants.
    const left = (r.left - r.height * 0.25) * scale;
    const right = (r.right + r.height * 0.1) * scale;
    const w = Math.max(1, Math.round((right - left) * zoom));
    const h = layout.height;
    const data = new Uint8Array(w * h);
    for (let ox = 0; ox < w; ox++) {
      const x = left + ox / zoom;
      const centre = (r.intercept + r.slope * (x / scale)) * scale;
      for (let oy = 0; oy < h; oy++) {
        const y = centre + (oy - h / 2) / zoom;
        data[oy * w + ox] = sample(img, x, y);
      }
    }
    return stretch({ data, width: w, height: h });
  });
  const width = Math.max(...strips.map((s) => s.width)) + 2 * layout.left;
  const out = new Uint8Array(width * layout.top(strips.length)).fill(255);
  strips.forEach((s, row) => {
    for (let y = 0; y < s.height; y++)
      out.set(s.data.subarray(y * s.width, (y + 1) * s.width), (layout.top(row) + y) * width + layout.left);
  });
  return { data: out, width, height: layout.top(strips.length) };
}

/**
 * Where levelledZone puts each row on its page: strips `height` pixels high, starting `left`
 * pixels in, the strip of row `row` at `top(row)` (and `top(rows)` the page's height).
 */
export function stripLayout(capHeight: number): { height: number; left: number; top: (row: number) => number } {
  // ICAO 9303 sets the rows about 1.65 character heights apart: a strip of 1.45 keeps the
  // neighbouring rows' tops and bottoms out.
  const height = Math.round(capHeight * 1.45);
  const gap = Math.round(capHeight * 0.6);
  return { height, left: capHeight, top: (row) => gap + row * (height + gap) };
}

function sample(img: Gray, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= img.width - 1 || y >= img.height - 1) return 255;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * img.width + x0;
  const d = img.data;
  const top = d[i]! * (1 - fx) + d[i + 1]! * fx;
  const bottom = d[i + img.width]! * (1 - fx) + d[i + img.width + 1]! * fx;
  return Math.round(top * (1 - fy) + bottom * fy);
}

/** Grey levels stretched so the darkest 2 % are black and the lightest half white (the page around the print). */
function stretch(img: Gray): Gray {
  const sorted = [...img.data].sort((a, b) => a - b);
  const dark = sorted[Math.floor(sorted.length * 0.02)]!;
  const light = sorted[Math.floor(sorted.length * 0.5)]!;
  const range = Math.max(1, light - dark);
  const data = img.data.map((v) => Math.max(0, Math.min(255, Math.round(((v - dark) * 255) / range))));
  return { ...img, data };
}
