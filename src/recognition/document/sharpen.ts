/**
 * An unsharp mask for the zone the OCR reads (docs/document-reading.md, "Document reading", step 2;
 * pure): each pixel pushed away from the mean of its neighbourhood (a box about a stroke wide), so a
 * blurred photo's strokes stand out from the paper again. The legacy engine reads blurred glyphs
 * badly (hard photos, blur σ 0.8 to 1.8: M read as H, 4 as 6); on the tuning seed's hard photos the
 * zone passes read 13 of 30 documents sharpened against 11 unsharpened, and the passports 2 of 10
 * against none. The glyph heights (glyph-heights.ts) are measured on the zone as sampled, never on
 * this copy: their thresholds were measured there.
 */
import { boxMeans, type Gray } from './marks.js';

/** `img` sharpened: v + (v − mean of the (2r+1)² box around it), r = capHeight / 16 (at least 1), clamped to 0…255. */
export function sharpened(img: Gray, capHeight: number): Gray {
  const r = Math.max(1, Math.round(capHeight / 16));
  const { width, height, data } = img;
  const means = boxMeans(img, r);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(2 * data[i]! - means[i]!)));
  return { data: out, width, height };
}
