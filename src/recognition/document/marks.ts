/**
 * The marks on a grey image (pure; no OCR), the ground the band finder (band.ts) and the glyph
 * heights (glyph-heights.ts) stand on: pixels darker than their neighbourhood, and the connected
 * components they form, a glyph each when it is character-sized.
 */

export interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Glyph {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
}

/**
 * For each pixel, the mean grey of the box about `radius` pixels around it (clipped at the edges),
 * in time linear in the pixels from a summed-area table. Shared by the dark marks below and the
 * sharpened zone (sharpen.ts).
 */
export function boxMeans(img: Gray, radius: number): Float64Array {
  const { data, width: w, height: h } = img;
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const means = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(h, y + radius + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(w, x + radius + 1);
      const sum = integral[y1 * (w + 1) + x1]! - integral[y0 * (w + 1) + x1]! - integral[y1 * (w + 1) + x0]! + integral[y0 * (w + 1) + x0]!;
      means[y * w + x] = sum / ((x1 - x0) * (y1 - y0));
    }
  }
  return means;
}

/**
 * Dark marks: pixels darker than the mean of their neighbourhood (a box about `radius` pixels
 * around) by more than `contrast` grey levels.
 */
export function darkMarks(img: Gray, radius: number, contrast: number): Uint8Array {
  const { data } = img;
  const means = boxMeans(img, radius);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) if (data[i]! < means[i]! - contrast) out[i] = 1;
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
