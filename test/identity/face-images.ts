import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

/** Test photos (see test/fixtures/faces/PROVENANCE.md) and images composed from them. */
const dir = join(import.meta.dirname, '..', 'fixtures', 'faces');

export const photo = (name: string): Buffer => readFileSync(join(dir, `person-${name}.jpg`));

/** The photo flipped left to right: a head turned one way now turns the other. */
export const mirrored = (name: string): Promise<Buffer> => sharp(photo(name)).flop().jpeg({ quality: 90 }).toBuffer();

/**
 * The photo re-encoded at another JPEG quality: the same face in new bytes, so a document can be
 * used again without tripping the reused-document rule.
 */
export const reencoded = (name: string, quality: number): Promise<Buffer> => sharp(photo(name)).jpeg({ quality }).toBuffer();

/** Two photos side by side in one JPEG (two faces in one image). */
export async function sideBySide(left: string, right: string): Promise<Buffer> {
  const [a, b] = await Promise.all([left, right].map((n) => sharp(photo(n)).resize({ height: 480 }).toBuffer()));
  const widthA = (await sharp(a!).metadata()).width;
  const widthB = (await sharp(b!).metadata()).width;
  return sharp({ create: { width: widthA + widthB, height: 480, channels: 3, background: '#808080' } })
    .composite([
      { input: a!, left: 0, top: 0 },
      { input: b!, left: widthA, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}
