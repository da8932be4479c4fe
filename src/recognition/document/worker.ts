/**
 * The document-reading worker (one thread of the pool in reader.ts): everything that touches
 * pixels or runs the OCR happens here, never on the API's event loop. Tesseract (tesseract.js, the
 * English data shipped in @tesseract.js-data/eng; nothing is downloaded) starts as soon as the
 * thread does, in the background; a task that arrives earlier waits for it.
 *
 * Two engines read each prepared image: the legacy engine, which reads OCR-B's filler '<' far
 * better (measured: the LSTM engine reads runs of fillers as K, L and C), and the LSTM engine as a
 * second opinion on letters and digits (repair.ts weighs them).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Page, type Worker } from 'tesseract.js';
import { findZoneRows } from './band.js';
import { FIND_WIDTH, greyCopy, SAMPLE_WIDTH } from './find-copy.js';
import { levelledZone } from './levelled-zone.js';
import { sharpened } from './sharpen.js';
import type { Gray } from './marks.js';
import type { ZoneGlyph } from './glyph-heights.js';
import { measuredZoneGlyphs } from './glyph-shapes.js';
import { readPrintedNumbers } from './front-number.js';
import { passRead, settle, type PassRead } from './passes.js';
import type { ZoneReading } from './zone-layout.js';
import { documentIdentity, type CardSides } from './sides.js';
import type { EngineLines, ReadLine } from './twins.js';
import { MAX_IMAGE_PIXELS as MAX_INPUT_PIXELS, MAX_WORKING_SIDE, workingSize } from '../image-bounds.js';

// Like the face workers: this thread yields the CPU to the API's event loop when both want it.
try {
  const nice = (workerData as { nice?: number } | undefined)?.nice ?? 10;
  if (nice > 0) setPriority(0, nice);
} catch {
  // Not permitted here: the OCR competes at normal priority.
}

// libvips keeps recent operations and their pixels in a cache shared by the process: this thread
// never repeats an operation on the same image, so the cache only holds memory (docs/identity.md, "Bounded
// identity work"). One libvips thread per image: the OCR engines already take the cores.
sharp.cache(false);
sharp.concurrency(1);

export interface DocumentReading {
  /** the zone whose check digits hold, or null */
  zone: ZoneReading | null;
  /** the text the OCR saw where the zone should be (empty when nothing zone-like was found) */
  text: string;
  /**
   * The engines and passes did not agree on some character of the holder's name (certainty.ts):
   * the zone stands for every other field, the name is shown as uncertain and never declines.
   */
  nameUncertain?: boolean;
}

/** What one pass saw (the read-rate script dumps it for the documents it could not read). */
export interface PassTrace {
  image: number;
  pass: string;
  legacy: string;
  lstm: string;
  /** each engine's lines with each character's confidence */
  lines: EngineLines;
  /** the zone's glyphs as measured on the image (glyph-heights.ts), when a zone was found on it */
  glyphs?: ZoneGlyph[][];
}

export interface ReadTask {
  images: Uint8Array[];
  trace?: boolean;
}

export type ReadResult = DocumentReading & { passes?: PassTrace[] };

/** A card sent as two sides (pool task `readCard`). */
export interface CardTask {
  front: Uint8Array;
  back: Uint8Array;
  trace?: boolean;
}

/** The reading of a card, with where its zone was read and what its front prints (null when no zone was read). */
export type CardResult = ReadResult & { sides: CardSides | null };

const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
const ZONE_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

const engine = async (oem: OEM) => {
  const w = await createWorker('eng', oem, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
  await w.setParameters({
    tessedit_char_whitelist: ZONE_CHARACTERS,
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    // The prepared images carry no resolution; without one Tesseract assumes 70 dpi and warns. At
    // 300 dpi a zone character of 24 to 32 px is the 8 to 10 point size Tesseract was trained on.
    user_defined_dpi: '300',
    // The legacy engine adapts its classifier to what it has read, so a document's reading would
    // depend on the documents read before it in this thread, any tenant's (measured: 16 hard photos
    // read twice in a row, the second reading differed in 9, the zone read in 2). Without it the same
    // image is read the same way every time (docs/document-reading.md, "Document reading").
    classify_enable_learning: '0',
  });
  return w;
};
let started: Promise<[Worker, Worker]> | undefined;
/**
 * The two engines, started once. In a pool thread they start as the module loads (in the
 * background, like the face models); anywhere else only when asked, so that importing this module
 * on the API's thread starts no engine threads that would keep the process alive after the
 * reader is closed.
 */
const engines = (): Promise<[Worker, Worker]> => {
  if (!started) {
    started = Promise.all([engine(OEM.TESSERACT_ONLY), engine(OEM.LSTM_ONLY)]);
    // A failed start is reported by every task (a pipeline fault), not as an unhandled rejection.
    started.catch(() => {});
  }
  return started;
};
if (!isMainThread) void engines();

/** Lines that look like part of a zone: long runs of the zone's characters with fillers in them. */
function zoneLikeText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ''))
    .filter((l) => l.length >= 20 && /^[A-Z0-9<]+$/.test(l))
    .join('\n');
}

const png = (g: Gray) =>
  sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 }, limitInputPixels: MAX_INPUT_PIXELS })
    .png({ compressionLevel: 1 })
    .toBuffer();

/**
 * The angle that makes the text rows level: the rotation whose dark-pixel row profile varies most,
 * searched on a small copy (for the whole-page passes behind a zone that was found and not read).
 */
async function skewAngle(image: Uint8Array): Promise<number> {
  const small = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .grayscale()
    .resize(workingSize(600))
    .normalise()
    .png()
    .toBuffer();
  let best = { angle: 0, score: -1 };
  for (let angle = -6; angle <= 6; angle += 0.5) {
    const { data, info } = await sharp(small, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate(angle, { background: '#ffffff' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let score = 0;
    let previous = 0;
    for (let y = 0; y < info.height; y++) {
      let dark = 0;
      for (let x = 0; x < info.width; x++) if (data[(y * info.width + x) * info.channels]! < 110) dark++;
      if (y > 0) score += (dark - previous) ** 2;
      previous = dark;
    }
    if (score > best.score) best = { angle, score };
  }
  return best.angle;
}

/** The character height glyphs are measured at (glyph-heights.ts): the largest the zone passes use. */
const MEASURE_CAP_HEIGHT = 40;

/**
 * The prepared images to read, in order, for one photo: the zone found and levelled, then the
 * whole page as fallbacks; each with the zone's glyphs measured once on the levelled zone (the
 * same for every pass over the photo). Nothing when no zone is found on the photo: no pass is
 * read (docs/document-reading.md, "Document reading").
 */
async function* preparedImages(image: Uint8Array): AsyncGenerator<{ pass: string; png: Buffer; glyphs?: ZoneGlyph[][] }> {
  const find = await greyCopy(image, FIND_WIDTH);
  const rows = findZoneRows(find);
  // A photo with no zone-like rows (a selfie, a blank page, noise, a card's front) cost the two
  // whole-page passes with both engines, 1 to 12 s on a shared machine, only to be sent to review
  // (a 4000 × 3000 photo of noise kept one engine busy for minutes). On the generated sets (three
  // seeds, 360 documents) every document those passes read is found by the band (band.ts), so
  // they now run only behind a zone that was found and not read.
  if (!rows) return;
  const full = await greyCopy(image, SAMPLE_WIDTH);
  const scale = full.width / find.width;
  const measured = levelledZone(full, rows, scale, MEASURE_CAP_HEIGHT);
  const glyphs = measuredZoneGlyphs(measured, rows.length, MEASURE_CAP_HEIGHT);
  for (const capHeight of [32, 24, MEASURE_CAP_HEIGHT])
    yield {
      pass: `zone ${capHeight}px`,
      png: await png(sharpened(capHeight === MEASURE_CAP_HEIGHT ? measured : levelledZone(full, rows, scale, capHeight), capHeight)),
      glyphs,
    };
  const angle = await skewAngle(image);
  const level = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: MAX_WORKING_SIDE, height: MAX_WORKING_SIDE, fit: 'inside', withoutEnlargement: true })
    .rotate(angle, { background: '#ffffff' })
    .grayscale()
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true });
  for (const { width, lowerShare } of [
    { width: 1000, lowerShare: 1 },
    { width: 1600, lowerShare: 0.5 },
  ]) {
    const { width: w, height: h } = level.info;
    const top = Math.round(h * (1 - lowerShare));
    yield {
      pass: `page ${width}px, lower ${lowerShare}`,
      glyphs,
      png: await sharp(level.data, { limitInputPixels: MAX_INPUT_PIXELS })
        .extract({ left: 0, top, width: w, height: h - top })
        .resize(workingSize(width))
        .normalise()
        .png({ compressionLevel: 1 })
        .toBuffer(),
    };
  }
}

/** The page's lines as the engine read them, each character with its confidence (the `blocks` output). */
function readLines(page: Page): ReadLine[] {
  return (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map((line) => {
        const out: ReadLine = { text: '', confidences: [] };
        for (const symbol of line.words.flatMap((word) => word.symbols))
          for (const c of symbol.text.replace(/\s+/g, '').toUpperCase()) {
            out.text += c;
            out.confidences.push(symbol.confidence);
          }
        return out;
      }),
    ),
  );
}

/** Both engines' text of one prepared image, with every character's confidence. */
const OUTPUT = { text: true, blocks: true };

/**
 * Reads the images in order (the back of a card first) and stops at the first zone that holds
 * and that a second pass over the same image confirms.
 */
export default async function readDocument(task: ReadTask): Promise<ReadResult> {
  const [legacy, lstm] = await engines();
  const passes: PassTrace[] = [];
  const traced = () => (task.trace ? { passes } : {});
  let seen = '';
  for (const [index, image] of task.images.entries()) {
    const reads: PassRead[] = [];
    images: for await (const prepared of preparedImages(image)) {
      const [first, second] = await Promise.all([legacy.recognize(prepared.png, {}, OUTPUT), lstm.recognize(prepared.png, {}, OUTPUT)]);
      const lines: EngineLines = { legacy: readLines(first.data), lstm: readLines(second.data) };
      if (task.trace)
        passes.push({ image: index, pass: prepared.pass, legacy: first.data.text, lstm: second.data.text, lines, glyphs: prepared.glyphs });
      reads.push(passRead(first.data.text, second.data.text, lines, prepared.glyphs));
      const settled = settle(reads);
      if (settled && 'uncertain' in settled) {
        seen = settled.uncertain.lines.join('\n');
        break images;
      }
      if (settled) {
        const zone = settled.certain;
        return { zone, text: zone.lines.join('\n'), ...(settled.nameUncertain ? { nameUncertain: true } : {}), ...traced() };
      }
      const text = zoneLikeText(first.data.text);
      if (text.length > seen.length) seen = text;
    }
  }
  return { zone: null, text: seen, ...traced() };
}

/**
 * Reads a card sent as two sides (pool task `readCard`): the zone as readDocument reads it, the
 * back first, then the front; and, when the back holds a card's zone (not a passport's, which
 * makes the sides disagree whatever the front shows), the front's printed document numbers in
 * one or two more passes (front-number.ts), so that the pipeline can tell one card from two (sides.ts).
 */
export async function readCard(task: CardTask): Promise<CardResult> {
  const back = await readDocument({ images: [task.back], trace: task.trace });
  if (back.zone) {
    const [legacy, lstm] = await engines();
    const printedNumbers =
      back.zone.format === 'TD3'
        ? []
        : await readPrintedNumbers({ lstm, legacy }, task.front, MAX_INPUT_PIXELS, documentIdentity(back.zone)?.number ?? null);
    return { ...back, sides: { zoneFrom: 'back', printedNumbers } };
  }
  const front = await readDocument({ images: [task.front], trace: task.trace });
  const passes = task.trace ? { passes: [...(back.passes ?? []), ...(front.passes ?? []).map((p) => ({ ...p, image: 1 }))] } : {};
  if (front.zone) return { ...front, ...passes, sides: { zoneFrom: 'front', printedNumbers: [] } };
  // As readDocument over both images: the longer zone-like text seen, the back's on a tie.
  return { zone: null, text: front.text.length > back.text.length ? front.text : back.text, ...passes, sides: null };
}

/**
 * Resolves once this thread's engines have started (pool task `warmUp`). The reader runs it before
 * a thread's first reading, outside the reading's deadline: starting the engines takes seconds on a
 * busy machine and depends on no upload, so it must not eat into the time an image is given.
 */
export async function warmUp(): Promise<void> {
  await engines();
}
