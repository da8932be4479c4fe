/**
 * The zone cut out of a photo and laid flat for the OCR (docs/document-reading.md, "Document reading"): the rows the
 * band finder found (band.ts) sampled along their own lines, so a tilted or slightly keystoned
 * photo is levelled row by row, and stacked on a white page at the character height a pass asks for.
 */
import { median, type ZoneRow } from './band.js';
import type { Gray } from './marks.js';

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
