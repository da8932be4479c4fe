/**
 * The shape witness (docs/document-reading.md, "Document reading", step 6; pure, no OCR): how much
 * each glyph of a levelled zone looks like each of OCR-B's own glyphs (ocr-b-glyphs.ts, the face
 * ICAO 9303 prescribes for the zone). The two engines can both misread a glyph and can disagree on
 * one where the check digits cannot choose (S and 8, Z and 2, B and 8 weigh alike or cancel); the
 * glyph itself is a third witness, measured once per photo on the zone levelled at 40 px.
 *
 * A glyph is compared with every template drawn at its true size against the row's baseline (no
 * glyph is scaled to its own box: O and 0 differ mostly in height), by normalised cross-correlation
 * over a shift of a pixel either way, at half the measuring size (glyphLikeness). The zone's own
 * scale and blur are found first from the glyphs themselves: the scale from the heights of the
 * glyphs against the templates they resemble most, the blur as the one whose blurred templates
 * resemble them best. Where a glyph cannot be
 * measured (none stands alone at a place, two run together, or nothing resembles it), or the whole
 * zone is blurred past its shapes (every template resembles every glyph alike), nothing is said.
 */
import { OCR_B_GLYPHS } from './ocr-b-glyphs.js';
import type { Glyph, Gray } from './marks.js';
import { glyphsByPlace, zoneGlyphBoxes, type Likeness, type ZoneGlyph } from './glyph-heights.js';
import { stripLayout } from './levelled-zone.js';
import { median } from './band.js';
import { MEASURED_PAIRS } from './shape-pairs.js';

/**
 * A glyph whose best correlation is below this resembles no OCR-B glyph (a blot, two glyphs run
 * together, a glyph cut by the strip): it says nothing.
 */
export const MIN_LIKENESS = 0.6;
/**
 * A zone whose glyphs' best correlation stands out from their second best by less than this (the
 * median over its glyphs) is blurred past its shapes: every template resembles every glyph alike,
 * and nothing is said for any of its glyphs. Clean renders stand out by 0.24 at the median, the
 * tuning seeds' hard photos by 0.13, a zone blurred with σ 4 px (capitals about 20 px high) by 0.01.
 */
const MIN_ZONE_GAP = 0.05;
/** The blurs (Gaussian σ in pixels of the zone compared at half its measuring size) a zone's glyphs are tried against. */
const BLURS = [0.3, 0.6, 0.9, 1.2];
/** Pixels of paper kept around a template, beyond its blur. */
const MARGIN = 1;

interface Template {
  char: string;
  /** zero-mean, unit-norm ink over the window */
  weights: Float64Array;
  width: number;
  height: number;
  /** the window's rows from its top to the baseline, and columns from its left to the ink box's centre */
  baseline: number;
  centre: number;
  /** the ink box's height where the ink is at least half (as the zone's glyphs are cut at mid-grey) */
  inkHeight: number;
}

/** OCR-B's glyph for `char` at `scale` × the templates' size, blurred by `sigma`, on a window with paper around it. */
function template(char: string, scale: number, sigma: number): Template {
  const g = OCR_B_GLYPHS[char]!;
  const pad = MARGIN + Math.ceil(2 * sigma);
  const w = Math.max(1, Math.round(g.width * scale));
  const h = Math.max(1, Math.round(g.height * scale));
  const width = w + 2 * pad;
  const height = h + 2 * pad;
  const ink = new Float64Array(width * height);
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= g.width || y >= g.height ? 0 : parseInt(g.ink[y * g.width + x]!, 16) / 15);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // Bilinear from the template's pixel centres.
      const sx = (x + 0.5) / scale - 0.5;
      const sy = (y + 0.5) / scale - 0.5;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      ink[(y + pad) * width + x + pad] =
        (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
    }
  let rows = 0;
  for (let y = 0; y < height; y++) if (ink.subarray(y * width, (y + 1) * width).some((v) => v >= 0.5)) rows++;
  const blurred = sigma > 0 ? blur(ink, width, height, sigma) : ink;
  let mean = 0;
  for (const v of blurred) mean += v;
  mean /= blurred.length;
  let norm = 0;
  for (let i = 0; i < blurred.length; i++) {
    blurred[i]! -= mean;
    norm += blurred[i]! ** 2;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < blurred.length; i++) blurred[i]! /= norm;
  return { char, weights: blurred, width, height, baseline: pad + Math.round(g.baseline * scale), centre: pad + w / 2, inkHeight: rows };
}

/** A separable Gaussian blur of σ `sigma` (pixels beyond the edge are paper). */
function blur(img: Float64Array, width: number, height: number, sigma: number): Float64Array {
  const r = Math.ceil(2 * sigma);
  const kernel = Array.from({ length: 2 * r + 1 }, (_, i) => Math.exp(-((i - r) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((s, k) => s + k, 0);
  const pass = (src: Float64Array, dx: number, dy: number) => {
    const out = new Float64Array(src.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let s = 0;
        for (let k = -r; k <= r; k++) {
          const nx = x + k * dx;
          const ny = y + k * dy;
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) s += src[ny * width + nx]! * kernel[k + r]!;
        }
        out[y * width + x] = s / total;
      }
    return out;
  };
  return pass(pass(img, 1, 0), 0, 1);
}

/** A glyph of the zone to compare: where its ink box's centre and its baseline are on the levelled page. */
interface Placed {
  cx: number;
  baseline: number;
  height: number;
}

/** The best correlation of `t` with the page around `g`, over a shift of up to a pixel each way. */
function correlation(page: Gray, t: Template, g: Placed): number {
  let best = -1;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      const left = Math.round(g.cx - t.centre) + dx;
      const top = Math.round(g.baseline - t.baseline) + dy;
      let sum = 0;
      let squares = 0;
      let product = 0;
      for (let y = 0; y < t.height; y++) {
        const py = top + y;
        for (let x = 0; x < t.width; x++) {
          const px = left + x;
          // Off the page is paper.
          const v = py < 0 || px < 0 || py >= page.height || px >= page.width ? 0 : (255 - page.data[py * page.width + px]!) / 255;
          sum += v;
          squares += v * v;
          product += v * t.weights[y * t.width + x]!;
        }
      }
      const n = t.width * t.height;
      const spread = Math.sqrt(squares - (sum * sum) / n);
      if (spread > 1e-6) best = Math.max(best, product / spread);
    }
  return best;
}

/**
 * Each row's glyphs (`boxes`: their ink boxes, rows' y from the top of their strip at `tops[row]`)
 * with where their baseline lies: the median bottom of the tall glyphs nearest it (fillers stand
 * above the baseline; a slanted photo moves the baseline along the row).
 */
function placed(boxes: Glyph[][], tops: number[]): Placed[][] {
  return boxes.map((row, r) => {
    const heights = row.map((g) => g.y1 - g.y0);
    const tallFrom = median(heights) * 0.8;
    const tall = row.filter((g, i) => heights[i]! >= tallFrom);
    return row.map((g) => {
      const near = [...tall].sort((a, b) => Math.abs(a.cx - g.cx) - Math.abs(b.cx - g.cx)).slice(0, 7);
      return { cx: (g.x0 + g.x1) / 2, baseline: tops[r]! + median(near.map((n) => n.y1)), height: g.y1 - g.y0 };
    });
  });
}

/**
 * How much each glyph of a levelled zone (`page`, its rows' strips starting at `tops`, the glyphs'
 * ink boxes in `boxes` as glyph-heights.ts cuts them, `pitch` the width of a character place)
 * resembles each OCR-B glyph: per row, per glyph, its likeness or undefined where nothing can be said.
 */
export function glyphLikeness(page: Gray, tops: number[], boxes: Glyph[][], pitch: number[]): (Likeness | undefined)[][] {
  // Compared at half the measuring size: a zone's capitals are about 20 px high in the photos the
  // reader is sent (a passport page 1,000 px wide), so the 40 px zone holds no more detail, and
  // a quarter of the pixels keeps the witness cheap.
  const small = halved(page);
  const glyphs = placed(boxes, tops).map((row) => row.map((g) => ({ cx: g.cx / 2, baseline: g.baseline / 2, height: g.height / 2 })));
  // Two glyphs run together are not measured.
  const measurable = boxes.map((row, r) => row.map((g) => g.x1 - g.x0 <= pitch[r]! * 0.95));
  const all = glyphs.flatMap((row, r) => row.filter((_, i) => measurable[r]![i]));
  const none = () => boxes.map((row) => row.map((): Likeness | undefined => undefined));
  if (all.length === 0) return none();
  const chars = Object.keys(OCR_B_GLYPHS);
  const ranked = (templates: Template[], g: Placed) =>
    templates.map((t) => ({ char: t.char, score: correlation(small, t, g) })).sort((a, b) => b.score - a.score);
  // The scale and blur are found on up to 30 glyphs spread over the zone.
  const sample = all.filter((_, i) => i % Math.ceil(all.length / 30) === 0);
  // The scale: first the zone's tall glyphs against the templates' (row heights mix capitals and
  // digits), then each glyph's height against the template it resembles most.
  const inkHeights = new Map(chars.map((c) => [c, template(c, 0.5, 0).inkHeight]));
  let scale = (0.5 * median(sample.map((g) => g.height))) / median(chars.filter((c) => c !== '<').map((c) => inkHeights.get(c)!));
  const firstTemplates = chars.map((c) => template(c, scale, BLURS[1]!));
  const first = sample.map((g) => ranked(firstTemplates, g)[0]!);
  const ratios = sample.flatMap((g, i) => (first[i]!.char === '<' ? [] : [(0.5 * g.height) / inkHeights.get(first[i]!.char)!]));
  if (ratios.length > 0) scale = median(ratios);
  // The blur: the one whose templates resemble the glyphs most, each glyph against its best character.
  let sigma = BLURS[0]!;
  let fit = Number.NEGATIVE_INFINITY;
  for (const s of BLURS) {
    const templates = new Map(first.map(({ char }) => [char, template(char, scale, s)]));
    const mean = sample.reduce((sum, g, i) => sum + correlation(small, templates.get(first[i]!.char)!, g), 0) / sample.length;
    if (mean > fit) [sigma, fit] = [s, mean];
  }
  const templates = chars.map((c) => template(c, scale, sigma));
  const scored = glyphs.map((row, r) =>
    row.map((g, i) => {
      if (!measurable[r]![i]) return undefined;
      const order = ranked(templates, g);
      return order[0]!.score < MIN_LIKENESS
        ? undefined
        : // Every character is kept: a preference over one left out could only be bounded by the
          // least kept (preference, below), and on blurred photos that bound stood near the margin
          // for characters the glyph hardly resembles (an M's H, an 8's 3).
          Object.fromEntries(order.map((x) => [x.char, Math.round(x.score * 1000) / 1000]));
    }),
  );
  // A zone blurred past its shapes resembles every template alike: its glyphs' best characters
  // stand out from their second by little.
  const gaps = scored.flat().flatMap((l) => {
    // Sorted: an object lists digit keys before the others, whatever their order of insertion.
    const [first, second] = l ? Object.values(l).sort((a, b) => b - a) : [];
    return first !== undefined && second !== undefined ? [first - second] : [];
  });
  return gaps.length === 0 || median(gaps) < MIN_ZONE_GAP ? none() : scored;
}

/** The page at half its size, each pixel the mean of a 2 × 2 block. */
function halved(page: Gray): Gray {
  const width = page.width >> 1;
  const height = page.height >> 1;
  const data = new Uint8Array(width * height);
  const d = page.data;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = 2 * y * page.width + 2 * x;
      data[y * width + x] = (d[i]! + d[i + 1]! + d[i + page.width]! + d[i + page.width + 1]! + 2) >> 2;
    }
  return { data, width, height };
}

/**
 * How far the glyph's likeness prefers `char` over `other`: the difference of their correlations,
 * taking a character the likeness does not hold as resembling no more than the least it holds
 * (the measured likeness holds every character; read-rate dumps before issue 43's last report
 * held the eight best). Undefined when nothing was measured or `char` is not among them.
 */
export function preference(likeness: Likeness | undefined, char: string, other: string): number | undefined {
  if (!likeness || likeness[char] === undefined) return undefined;
  const floor = Math.min(...Object.values(likeness));
  return likeness[char] - (likeness[other] ?? floor);
}

/**
 * The glyphs of a zone levelled at `capHeight` with `rows` rows (glyph-heights.ts, zoneGlyphs),
 * each with its likeness where its shape could be measured: what the worker keeps for the rules.
 */
export function measuredZoneGlyphs(zone: Gray, rows: number, capHeight: number): ZoneGlyph[][] {
  const boxes = zoneGlyphBoxes(zone, rows, capHeight);
  const layout = stripLayout(capHeight);
  // A row's pitch: the usual distance between neighbouring glyphs (every place of a zone is printed).
  const pitch = boxes.map((row) => (row.length < 2 ? 0 : median(row.slice(1).map((g, i) => g.cx - row[i]!.cx))));
  const likeness = glyphLikeness(
    zone,
    boxes.map((_, r) => layout.top(r)),
    boxes,
    pitch,
  );
  return boxes.map((row, r) =>
    row.map((g, i) => ({ cx: g.cx, width: g.x1 - g.x0, height: g.y1 - g.y0, ...(likeness[r]![i] ? { likeness: likeness[r]![i] } : {}) })),
  );
}

/**
 * A zone's character where the readings disagree is settled by its shape when the glyph resembles
 * it more than the other character by at least a margin (correlations, 0 … 2): this one for a pair
 * of characters measured too seldom on the tuning seeds to have its own. Chosen from the table
 * `npm run documents:read-rate` prints (docs/document-reading.md, "Document reading", step 6).
 */
export const SHAPE_MARGIN = 0.15;
/**
 * A pair's own margin is its worst measured preference for the wrong character (shape-pairs.ts)
 * plus this. The shape confuses some pairs and never others: over the tuning seeds a printed 1
 * resembled T more by up to 0.130 and a 0 resembled O more by up to 0.098, while an 8 and an S
 * never resembled the other more than their own by more than 0.006, and an M and an N never did
 * (docs/document-reading.md, "The margin, pair by pair"). On photos no rule was tuned on, the worst
 * preference for T over a printed 1 once rose from 0.071 on the tuning seeds to 0.166 (seed
 * 8237): 0.12 covers such a rise.
 */
export const PAIR_BUFFER = 0.12;
/**
 * No pair's margin is less. It binds only pairs measured far apart (a worst preference of −0.04
 * or less, 582 of the 630 pairs): a veto between them still asks for a clear preference, not one
 * a single glyph's blur or cut could make.
 */
export const PAIR_MIN_MARGIN = 0.08;
/** A pair is measured well enough for its own margin when each of its characters was measured this often on the tuning seeds. */
export const PAIR_MIN_GLYPHS = 100;

/** The margin by which a glyph must resemble `char` more than `other` for the shape to tell them apart. */
export function shapeMargin(char: string, other: string): number {
  const measured = MEASURED_PAIRS[char < other ? char + other : other + char];
  if (!measured || measured[0] < PAIR_MIN_GLYPHS) return SHAPE_MARGIN;
  return Math.max(PAIR_MIN_MARGIN, measured[1] + PAIR_BUFFER);
}

/** What the glyphs' shapes say about a reading `lines` of the zone they were measured on. */
export interface ShapeWitness {
  /** whether the glyph at line `row`, character `column` resembles `char` more than `other` by the pair's margin (shapeMargin) */
  prefers(row: number, column: number, char: string, other: string): boolean;
  /** a letter or digit the glyph there resembles more than `char` by the pair's margin (at most SHAPE_MARGIN), if any */
  rival(row: number, column: number, char: string): string | undefined;
  /** whether the glyph there resembles `other` more than `char` at all (no margin) */
  leansTo(row: number, column: number, char: string, other: string): boolean;
}

const SILENT: ShapeWitness = { prefers: () => false, rival: () => undefined, leansTo: () => false };

/**
 * The shape witness for a reading of the zone: each of its characters matched to the glyph at its
 * place (glyph-heights.ts, glyphsByPlace). Silent where the glyphs do not match the reading's rows.
 */
export function shapeWitness(lines: string[], glyphs: ZoneGlyph[][] | undefined): ShapeWitness {
  if (!glyphs || glyphs.length !== lines.length) return SILENT;
  const places = lines.map((line, row) => glyphsByPlace(glyphs[row]!, line.length));
  const likenessAt = (row: number, column: number) => places[row]?.[column]?.likeness;
  return {
    prefers(row, column, char, other) {
      if (char === other) return false;
      const margin = preference(likenessAt(row, column), char, other);
      return margin !== undefined && margin >= shapeMargin(char, other);
    },
    rival(row, column, char) {
      const likeness = likenessAt(row, column);
      if (!likeness) return undefined;
      const floor = Math.min(...Object.values(likeness));
      const own = likeness[char] ?? floor;
      // Here the margin guards the other way: a rival the witness finds leaves a zone uncertain, so a
      // pair's own margin is used only where it asks less than the common one.
      return Object.entries(likeness).find(
        ([other, score]) => other !== char && other !== '<' && score - own >= Math.min(SHAPE_MARGIN, shapeMargin(char, other)),
      )?.[0];
    },
    leansTo(row, column, char, other) {
      const margin = preference(likenessAt(row, column), other, char);
      return margin !== undefined && margin > 0;
    },
  };
}
