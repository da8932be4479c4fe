/**
 * An unsharp mask for the zone the OCR reads (docs/document-reading.md, "Document reading", step 2;
 * pure): each pixel pushed away from the mean of its neighbourhood (a box about a stroke wide), so a
 * blurred photo's strokes stand out from the paper again. The legacy engine reads blurred glyphs
 * badly (hard photos, blur σ 0.8 to 1.8: M read as H, 4 as 6); on the tuning seed's hard photos the
 * zone passes read 13 of 30 documents sharpened against 11 unsharpened, and the passports 2 of 10
 * against none. The glyph heights (glyph-heights.ts) are measured on the zone as sampled, never on
 * this copy: their thresholds were measured there.
 */
import type { Gray } from './marks.js';

/** `img` sharpened: v + (v − mean of the (2r+1)² box around it), r = capHeight / 16 (at least 1), clamped to 0…255. */
export function sharpened(img: Gray, capHeight: number): Gray {
  const r = Math.max(1, Math.round(capHeight / 16));
  const { width: w, height: h, data } = img;
  // Sums over every box in constant time from a summed-area table.
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
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const sum = integral[y1 * (w + 1) + x1]! - integral[y0 * (w + 1) + x1]! - integral[y1 * (w + 1) + x0]! + integral[y0 * (w + 1) + x0]!;
      const v = data[y * w + x]!;
      out[y * w + x] = Math.max(0, Math.min(255, Math.round(2 * v - sum / ((x1 - x0) * (y1 - y0)))));
    }
  }
  return { data: out, width: w, height: h };
}
