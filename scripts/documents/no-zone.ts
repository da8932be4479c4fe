/**
 * Photos with no machine-readable zone, as people send them in place of a document: a selfie,
 * noise, a blank page, an ID card's front (the side with the portrait and no zone). The read-rate
 * measurement and the benchmark time the reader on them: each must be refused, and fast.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { png } from '../fixtures/images.js';
import { documentAt, photoFor } from './fixture-set.js';
import { renderDocument, seeded } from './render.js';

const FACES = fileURLToPath(new URL('../../test/fixtures/faces/', import.meta.url));

export interface NoZonePhoto {
  label: string;
  image: Buffer;
}

/** Twelve photos with no zone, drawn from `seed`: four selfies, two of noise, two blank pages, four card fronts. */
export async function noZonePhotos(seed = 1): Promise<NoZonePhoto[]> {
  const random = seeded(seed * 31 + 7);
  const faces = readdirSync(FACES).filter((f) => f.endsWith('.jpg'));
  const out: NoZonePhoto[] = [];
  for (let i = 0; i < 4; i++) {
    const name = faces[Math.floor(random() * faces.length)]!;
    // The fixtures are 640 px; a phone's selfie is larger, and its size is what the reader pays for.
    const width = [640, 1280, 2000, 3000][i]!;
    out.push({
      label: `selfie ${name} at ${width} px`,
      image: await sharp(`${FACES}${name}`).resize({ width }).jpeg({ quality: 85 }).toBuffer(),
    });
  }
  for (const [width, height] of [
    [1200, 900],
    [2400, 1800],
  ] as const) {
    // Downscaled from 2,400 px, noise shows the band finder rows of 35 to 46 "glyphs" spaced like
    // a zone; the marks between them tell it apart (band.ts, MAX_MARKS_BETWEEN_ROWS).
    out.push({ label: `noise ${width}×${height}`, image: png(width, height, { seed: seed + width, noisyRows: height }) });
    out.push({
      label: `blank page ${width}×${height}`,
      image: await sharp({ create: { width, height, channels: 3, background: '#f4f3ee' } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    });
  }
  for (let i = 0; i < 4; i++) {
    const spec = { ...documentAt(500 + i, seed), format: 'TD1' as const };
    const photo = { ...photoFor('phone photo', seeded(seed + 1000 + i)), width: [1000, 1400, 2000, 3000][i]! };
    out.push({ label: `ID card front at ${photo.width} px`, image: await renderDocument(spec, 'front', photo, i + 1) });
  }
  return out;
}
