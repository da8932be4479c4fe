/**
 * The front's printed document number (docs/document-reading.md, "Document reading"), read in the document worker
 * thread only: one OCR pass of the LSTM engine over the whole front, grayscale and downscaled,
 * that answers the tokens shaped like a document number (sides.ts compares them with the back's
 * zone). Only a card sent with its back pays for it.
 */
import sharp from 'sharp';
import { PSM, type Worker } from 'tesseract.js';
import { printedNumberCandidates } from './sides.js';

/**
 * The longest side the front is read at, never enlarged (2.6 megapixels at most, under the
 * 4-megapixel bound on every pass). A card filling half of a phone photo keeps its printed
 * details about 20 px high there, which the LSTM engine reads; larger costs time for nothing.
 */
export const FRONT_LONGEST_SIDE = 1600;

/**
 * Reads the front once and answers its document-number-shaped tokens. The engine is the zone's
 * LSTM engine (it reads print in other typefaces far better than the legacy one), switched to
 * sparse text for this pass (the printed details are short runs scattered around a portrait) and
 * back to the zone's single block before it is used again, also when the pass fails.
 */
export async function readPrintedNumbers(engine: Worker, front: Uint8Array, limitInputPixels: number): Promise<string[]> {
  const image = await sharp(front, { limitInputPixels })
    .rotate()
    .grayscale()
    .resize({ width: FRONT_LONGEST_SIDE, height: FRONT_LONGEST_SIDE, fit: 'inside', withoutEnlargement: true })
    .normalise()
    .png({ compressionLevel: 1 })
    .toBuffer();
  await engine.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
  try {
    const { data } = await engine.recognize(image);
    return printedNumberCandidates(data.text);
  } finally {
    await engine.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
  }
}
