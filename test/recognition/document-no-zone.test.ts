import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findZoneRows, marksBetweenZoneRows, MAX_MARKS_BETWEEN_ROWS } from '../../src/recognition/document/band.js';
import { FIND_WIDTH, greyCopy } from '../../src/recognition/document/find-copy.js';
import { createDocumentReader } from '../../src/recognition/document/reader.js';
import { documentAt, photoFor, portraitPath } from '../../scripts/documents/fixture-set.js';
import { renderDocument, seeded } from '../../scripts/documents/render.js';
import { noisePng } from '../../scripts/fixtures/hostile-images.js';
import { png } from '../../scripts/fixtures/images.js';
import { skippedOnPostgres } from '../helpers/once.js';

/** The copy the reader looks for the zone on. */
const findCopy = (image: Buffer) => greyCopy(image, FIND_WIDTH);

/** Seed 202's phone photo #25 of the read-rate set: a TD2 card whose zone's glyph heights spread over several pixels. */
const spreadZone = () => {
  const spec = documentAt(25, 'phone photo'.length * 202);
  return renderDocument(spec, 'front', photoFor('phone photo', seeded(25 + 17 * 'phone photo'.length + 7919 * 201)), 26);
};

/**
 * Noise in which the band finder sees rows of character-sized marks spaced like a zone: the
 * 6,000 × 6,600 noise PNG of the hostile uploads and colour noise of 2,400 px, each looked at on
 * the 1,200 px copy.
 */
const zoneLikeNoise = () => [noisePng(6_000, 6_600), png(2400, 1800, { seed: 2461, noisyRows: 1800 })];

describe('finding the zone on a photo (pure, no OCR)', { timeout: 60_000 }, () => {
  it('finds a zone whose glyph heights no single pixel height gathers, as two rows of 36', async () => {
    const copy = await findCopy(await spreadZone());
    const rows = findZoneRows(copy);
    expect(rows?.map((r) => r.glyphs.length)).toEqual([36, 36]);
    // Blank paper between the rows, as on every generated document (npm run documents:band-table).
    expect(marksBetweenZoneRows(copy, rows!)[0]).toBeLessThanOrEqual(0.002);
  });

  it('finds no zone on noise whose marks stand in rows spaced like a zone, as marks stand between them too', async () => {
    for (const noise of zoneLikeNoise()) {
      const copy = await findCopy(noise);
      const unbounded = findZoneRows(copy, Number.POSITIVE_INFINITY);
      expect(unbounded?.length).toBeGreaterThanOrEqual(2);
      for (const marks of marksBetweenZoneRows(copy, unbounded!)) expect(marks).toBeGreaterThan(MAX_MARKS_BETWEEN_ROWS);
      expect(findZoneRows(copy)).toBeNull();
    }
  });

  it('finds no zone on a selfie, noise, a blank page or a card front', async () => {
    const card = { ...documentAt(3, 77), format: 'TD1' as const };
    const photos = [
      readFileSync(portraitPath('person-b-1')),
      png(1200, 900, { seed: 5, noisyRows: 900 }),
      await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#f4f3ee' } })
        .jpeg()
        .toBuffer(),
      await renderDocument(card, 'front', photoFor('phone photo', seeded(4)), 1),
    ];
    for (const photo of photos) expect(findZoneRows(await findCopy(photo))).toBeNull();
  });
});

describe.skipIf(skippedOnPostgres())('a photo with no zone is refused without any OCR pass (real reader)', { timeout: 600_000 }, () => {
  it('reads no pass over a selfie, noise (the hostile 6,000 × 6,600 PNG too) or a blank page, and still reads every pass a document needs', async () => {
    const reader = createDocumentReader();
    try {
      for (const photo of [
        readFileSync(portraitPath('person-a-1')),
        png(1200, 900, { seed: 5, noisyRows: 900 }),
        ...zoneLikeNoise(),
        await sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#ffffff' } })
          .png()
          .toBuffer(),
      ]) {
        // Before, each went through the two whole-page passes with both engines (`page …` in the trace).
        expect(await reader.read([photo], { trace: true })).toEqual({ zone: null, text: '', passes: [] });
      }
      // The card whose zone only the spread glyph heights find is read on its zone passes, no page pass.
      const { zone, passes = [] } = await reader.read([await spreadZone()], { trace: true });
      expect(zone?.format).toBe('TD2');
      expect(passes.length).toBeGreaterThan(0);
      expect(passes.every((p) => p.pass.startsWith('zone '))).toBe(true);
    } finally {
      await reader.close();
    }
  });
});
