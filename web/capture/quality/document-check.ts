import { MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH } from '../../../src/identity/upload-limits.js';

/**
 * The checks the page runs on a document photo before sending it (docs/identity.md, "Identity: the hosted
 * capture page"): pure arithmetic on RGBA pixels, so the same code runs in the browser and in the
 * tests, and `npx tsx scripts/measure-document-checks.ts` prints the figures the thresholds below
 * were chosen from. The size rule is the server's own (src/identity/upload-limits.ts): a photo
 * the upload would refuse as `image_too_small` is never sent.
 */
export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row (ImageData's layout). */
  data: Uint8ClampedArray | Uint8Array;
}

export interface DocumentMeasures {
  width: number;
  height: number;
  /** Variance of the Laplacian of the grey picture at WORK_SIDE: low when blurred or out of focus. */
  sharpness: number;
  /** Share of pixels at WORK_SIDE that are blown out (every channel at least SATURATED). */
  glare: number;
  /**
   * Share of the picture covered by the box around its edges at COARSE_SIDE, where averaging has
   * wiped out pixel noise: a photographed document (or anything with outlines) covers much of the
   * frame; random noise, a blank wall or a black frame leave (almost) no edges at all.
   */
  coverage: number;
}

export type DocumentProblem = 'too_small' | 'no_document' | 'blurry' | 'glare';

/** The longer side the sharpness and glare are measured at: the size a phone photo is judged by, whatever the camera. */
const WORK_SIDE = 480;
/** The longer side the document's outline is looked for at. */
const COARSE_SIDE = 32;
/** A gradient (|dx| + |dy| of grey levels at COARSE_SIDE) at least this strong is an edge. */
const EDGE = 24;
const SATURATED = 250;

/**
 * Thresholds, chosen from `npx tsx scripts/measure-document-checks.ts` (its table is in the
 * docs/identity.md, "Checks before sending"): every fixture photo passes with a margin, and each bad case
 * the script makes fails its own check and no other.
 */
export const DOCUMENT_LIMITS = {
  /** The 24 fixture photos measured 43–3,288 (the softest: faces/person-b-*); the same photos blurred (σ 4) 2–20. */
  minSharpness: 30,
  /** Fixtures 0–0.1 %; a quarter of the picture blown out measures 25 %. */
  maxGlare: 0.08,
  /** Fixtures 0.33–0.71; random noise, a blank and a dark picture 0. */
  minCoverage: 0.15,
} as const;

/** The grey picture box-averaged so its longer side is at most `side` (every source pixel counts once). */
function grey(p: Pixels, side: number): { width: number; height: number; v: Float32Array; saturated: number } {
  const k = Math.max(1, Math.max(p.width, p.height) / side);
  const width = Math.max(1, Math.floor(p.width / k));
  const height = Math.max(1, Math.floor(p.height / k));
  const sum = new Float32Array(width * height);
  const count = new Float32Array(width * height);
  let saturated = 0;
  for (let y = 0; y < p.height; y++) {
    const ty = Math.min(height - 1, Math.floor(y / k));
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 4;
      const r = p.data[i]!;
      const g = p.data[i + 1]!;
      const b = p.data[i + 2]!;
      if (r >= SATURATED && g >= SATURATED && b >= SATURATED) saturated++;
      const t = ty * width + Math.min(width - 1, Math.floor(x / k));
      sum[t]! += 0.299 * r + 0.587 * g + 0.114 * b;
      count[t]! += 1;
    }
  }
  for (let t = 0; t < sum.length; t++) sum[t] = sum[t]! / Math.max(1, count[t]!);
  return { width, height, v: sum, saturated: saturated / Math.max(1, p.width * p.height) };
}

function laplacianVariance(g: { width: number; height: number; v: Float32Array }): number {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let y = 1; y < g.height - 1; y++)
    for (let x = 1; x < g.width - 1; x++) {
      const i = y * g.width + x;
      const lap = g.v[i - 1]! + g.v[i + 1]! + g.v[i - g.width]! + g.v[i + g.width]! - 4 * g.v[i]!;
      n++;
      const d = lap - mean;
      mean += d / n;
      m2 += d * (lap - mean);
    }
  return n > 1 ? m2 / (n - 1) : 0;
}

/** The share of the picture inside the box that holds the edges (from their 5th to 95th percentile each way). */
function edgeCoverage(g: { width: number; height: number; v: Float32Array }): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 1; y < g.height - 1; y++)
    for (let x = 1; x < g.width - 1; x++) {
      const i = y * g.width + x;
      const gradient = Math.abs(g.v[i + 1]! - g.v[i - 1]!) + Math.abs(g.v[i + g.width]! - g.v[i - g.width]!);
      if (gradient >= EDGE) {
        xs.push(x);
        ys.push(y);
      }
    }
  // A handful of edge pixels is no outline.
  if (xs.length < 8) return 0;
  const spread = (values: number[], size: number) => {
    values.sort((a, b) => a - b);
    const lo = values[Math.floor(values.length * 0.05)]!;
    const hi = values[Math.floor(values.length * 0.95)]!;
    return (hi - lo + 1) / size;
  };
  return spread(xs, g.width) * spread(ys, g.height);
}

export function measureDocument(p: Pixels): DocumentMeasures {
  const work = grey(p, WORK_SIDE);
  const coarse = grey(p, COARSE_SIDE);
  return {
    width: p.width,
    height: p.height,
    sharpness: laplacianVariance(work),
    glare: work.saturated,
    coverage: edgeCoverage(coarse),
  };
}

/** The first problem of a measured photo, in the order a person fixes them, or null when it may be sent. */
export function judgeDocument(m: DocumentMeasures): DocumentProblem | null {
  // The server's rule exactly (src/identity/pipeline/decide.ts): width and height as stored.
  if (m.width < MIN_IMAGE_WIDTH || m.height < MIN_IMAGE_HEIGHT) return 'too_small';
  if (m.coverage < DOCUMENT_LIMITS.minCoverage) return 'no_document';
  if (m.sharpness < DOCUMENT_LIMITS.minSharpness) return 'blurry';
  if (m.glare > DOCUMENT_LIMITS.maxGlare) return 'glare';
  return null;
}
