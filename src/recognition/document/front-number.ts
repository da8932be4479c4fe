/**
 * The front's printed document number (docs/document-reading.md, "Document reading"), read in the document worker
 * thread only: an OCR pass of the LSTM engine over the whole front, grayscale and downscaled, and
 * of the legacy engine where the first did not show the zone's number, that answers the tokens
 * shaped like a document number (sides.ts compares them with the back's zone). Only a card sent
 * with its back pays for it.
 */
import sharp from 'sharp';
import { PSM, type Worker } from 'tesseract.js';
import { frontShowsNumber, printedNumberCandidates } from './sides.js';

/**
 * The longest side the front is read at, never enlarged (2.6 megapixels at most, under the
 * 4-megapixel bound on every pass). A card filling half of a phone photo keeps its printed
 * details about 20 px high there, which the LSTM engine reads; larger costs time for nothing.
 */
export const FRONT_LONGEST_SIDE = 1600;

/** The document-number-shaped tokens `engine` reads on `image`, in sparse-text mode, put back to the zone's single block after (also when the pass fails). */
async function tokensRead(engine: Worker, image: Buffer): Promise<string[]> {
  await engine.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
  try {
    const { data } = await engine.recognize(image);
    return printedNumberCandidates(data.text);
  } finally {
    await engine.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK });
  }
}

/**
 * Reads the front and answers its document-number-shaped tokens. The LSTM engine reads first (it
 * reads print in other typefaces far better than the legacy one), in sparse-text mode (the printed
 * details are short runs scattered around a portrait). Where its tokens do not show `number` (the
 * zone's, read from the back) the legacy engine reads the same image too and its tokens are added:
 * the two engines slip in different places (tuning seed 20, 40 fronts per difficulty: the LSTM
 * engine dropped the J of 453X97JGJ and read RC2M9V72T as RC2MOV72T, where the legacy engine read
 * both exactly), and the comparison stays position by position (sides.ts). A card whose front
 * shows the number in the first pass pays for one pass only.
 */
export async function readPrintedNumbers(
  engines: { lstm: Worker; legacy: Worker },
  front: Uint8Array,
  limitInputPixels: number,
  number: string | null,
): Promise<string[]> {
  const image = await sharp(front, { limitInputPixels })
    .rotate()
    .grayscale()
    .resize({ width: FRONT_LONGEST_SIDE, height: FRONT_LONGEST_SIDE, fit: 'inside', withoutEnlargement: true })
    .normalise()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const tokens = await tokensRead(engines.lstm, image);
  if (number === null || frontShowsNumber(tokens, number)) return tokens;
  return [...new Set([...tokens, ...(await tokensRead(engines.legacy, image))])];
}
