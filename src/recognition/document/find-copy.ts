/**
 * The grey copies of a photo the reader works on (docs/document-reading.md, "Document reading"): the zone is looked
 * for on a copy at most FIND_WIDTH pixels on its longer side (band.ts), and its rows are sampled
 * from one at most SAMPLE_WIDTH (levelled-zone.ts). Shared by the reading thread, the band table
 * (scripts/documents/band-table.ts) and the tests, so they all look at the photo the same way.
 */
import sharp from 'sharp';
import type { Gray } from './marks.js';
import { MAX_IMAGE_PIXELS } from '../image-bounds.js';

/** The longest side the zone is looked for on: a zone's characters are still 10 px or more there. */
export const FIND_WIDTH = 1200;
/** The longest side sampled from: beyond it a phone photo has more pixels than detail. */
export const SAMPLE_WIDTH = 2400;

/** The photo upright (its EXIF orientation), grey, at most `width` pixels on its longer side (never enlarged). */
export async function greyCopy(image: Uint8Array, width: number): Promise<Gray> {
  const { data, info } = await sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .grayscale()
    .resize({ width, height: width, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
