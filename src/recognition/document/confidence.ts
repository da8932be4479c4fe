/**
 * What the engines' per-character confidences are trusted for (docs/document-reading.md, "Document reading"; pure).
 * In the fields that may hold letters and digits, G and 6, L and 1, S and 8, U and 0 weigh the same
 * modulo 10, so no check digit can tell them apart.
 */

/** One line an engine read: its characters, spaces left out, and each one's confidence (0 to 100) as Tesseract reports it. */
export interface ReadLine {
  text: string;
  confidences: number[];
}

/**
 * Where the two engines read the two twins of such a pair in one pass, the LSTM engine's character
 * is taken when its confidence is at least this; below it neither counts. Chosen from the measured
 * table in docs/document-reading.md (`npm run documents:read-rate` prints it): the legacy engine read OCR-B's G
 * as 6 in a third of the G it saw, at 73 to 84, where it reads most true 6s too, so its confidence
 * cannot choose; the LSTM engine read 90 % of the printed characters at 97 or more. A twin the LSTM
 * engine reads surely but wrongly is still caught by the rule of twins.ts (two passes must agree).
 */
export const LSTM_TWIN_CONFIDENCE = 97;
