/**
 * Reads the machine-readable zone from document photos with Tesseract (tesseract.js, its own
 * worker thread, so the OCR never runs on the API's event loop). The legacy engine of the English
 * data that ships in @tesseract.js-data/eng reads OCR-B's filler '<' far better than the LSTM
 * engine (measured: the LSTM engine reads runs of fillers as K, L and C), so that is the one used;
 * nothing is downloaded at run time. The worker starts in the background like the face models.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { zoneFromText, type ZoneReading } from './repair.js';

/** Images above this many pixels are never decoded (decode bombs); uploads over it are refused earlier. */
export const MAX_INPUT_PIXELS = 40_000_000;

export interface DocumentReading {
  /** the zone whose check digits hold, or null */
  zone: ZoneReading | null;
  /** the text the OCR saw where the zone should be (empty when nothing zone-like was found) */
  text: string;
}

export interface DocumentReader {
  start(): void;
  /** Reads the images in order (the back of a card first) and stops at the first zone that holds. */
  read(images: Uint8Array[]): Promise<DocumentReading>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');

/**
 * The passes over one image, until one reads a zone: the whole photo at a width where a document
 * filling the frame has zone characters about 20 px high, then only its lower part (where ICAO 9303
 * puts the zone) enlarged, for a document photographed from further away.
 */
const PASSES: { width: number; lowerShare: number }[] = [
  { width: 1000, lowerShare: 1 },
  { width: 1600, lowerShare: 0.5 },
];

/** Lines that look like part of a zone: long runs of the zone's characters with fillers in them. */
function zoneLikeText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ''))
    .filter((l) => l.length >= 20 && /^[A-Z0-9<]+$/.test(l))
    .join('\n');
}

/**
 * The angle that makes the text rows level: the rotation whose dark-pixel row profile varies most
 * (rows of text alternate with the gaps between them), searched on a small copy of the image.
 */
async function skewAngle(image: Uint8Array): Promise<number> {
  const small = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .grayscale()
    .resize({ width: 600 })
    .normalise()
    .png()
    .toBuffer();
  let best = { angle: 0, score: -1 };
  for (let angle = -6; angle <= 6; angle += 0.5) {
    const { data, info } = await sharp(small).rotate(angle, { background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
    const rows: number[] = [];
    for (let y = 0; y < info.height; y++) {
      let dark = 0;
      for (let x = 0; x < info.width; x++) if (data[(y * info.width + x) * info.channels]! < 110) dark++;
      rows.push(dark);
    }
    let score = 0;
    for (let y = 1; y < rows.length; y++) score += (rows[y]! - rows[y - 1]!) ** 2;
    if (score > best.score) best = { angle, score };
  }
  return best.angle;
}

export function createDocumentReader(): DocumentReader {
  let worker: Promise<Worker[]> | undefined;
  const engine = async (oem: OEM) => {
    const w = await createWorker('eng', oem, { langPath: LANG_PATH, gzip: true, cacheMethod: 'none' });
    await w.setParameters({ tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<', tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
    return w;
  };
  const start = (): Promise<Worker[]> => {
    // The legacy engine reads the fillers; the LSTM engine is the second opinion on letters and digits.
    worker ??= Promise.all([engine(OEM.TESSERACT_ONLY), engine(OEM.LSTM_ONLY)]);
    // A failed start is reported by the read that awaits it; the next read starts again.
    worker.catch(() => (worker = undefined));
    return worker;
  };
  // One recognition at a time on the one worker: tesseract.js queues jobs itself, and the
  // pipeline decides one verification at a time per instance.
  return {
    start: () => void start().catch(() => {}),
    async read(images) {
      const [legacy, lstm] = await start();
      let seen = '';
      for (const image of images) {
        const angle = await skewAngle(image);
        const level = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .rotate(angle, { background: '#ffffff' })
          .grayscale()
          .png({ compressionLevel: 1 })
          .toBuffer({ resolveWithObject: true });
        for (const { width, lowerShare } of PASSES) {
          const { width: w, height: h } = level.info;
          const top = Math.round(h * (1 - lowerShare));
          const prepared = await sharp(level.data)
            .extract({ left: 0, top, width: w, height: h - top })
            .resize({ width })
            .normalise()
            .png({ compressionLevel: 1 })
            .toBuffer();
          const [first, second] = await Promise.all([legacy!.recognize(prepared), lstm!.recognize(prepared)]);
          const zone = zoneFromText(first.data.text, second.data.text);
          const text = zoneLikeText(first.data.text);
          if (zone) return { zone, text: zone.lines.join('\n') };
          if (text.length > seen.length) seen = text;
        }
      }
      return { zone: null, text: seen };
    },
    async close() {
      const w = worker;
      worker = undefined;
      if (w) await Promise.all(((await w.catch(() => undefined)) ?? []).map((e) => e.terminate()));
    },
  };
}
