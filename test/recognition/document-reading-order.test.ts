import { describe, expect, it } from 'vitest';
import { createDocumentReader } from '../../src/recognition/document/reader.js';
import { documentAt, photoFor, type Difficulty } from '../../scripts/documents/fixture-set.js';
import { renderDocument, seeded } from '../../scripts/documents/render.js';
import { skippedOnPostgres } from '../helpers/once.js';

/** The read-rate script's document `index` of `difficulty` in seed 4711's set. */
async function generated(index: number, difficulty: Difficulty): Promise<Buffer> {
  const spec = documentAt(index, difficulty.length * 4711);
  return renderDocument(
    spec,
    spec.format === 'TD1' ? 'back' : 'front',
    photoFor(difficulty, seeded(index + 17 * difficulty.length)),
    index + 1,
  );
}

describe.skipIf(skippedOnPostgres())(
  'a document is read the same way whatever the reader read before it (real OCR)',
  { timeout: 120_000 },
  () => {
    it("reads a hard photo alike before and after ten readings of another document (another tenant's, say)", async () => {
      const reader = createDocumentReader();
      try {
        const [probe, other] = await Promise.all([generated(0, 'hard'), generated(3, 'clean')]);
        const seen = async () => {
          const { zone, passes = [] } = await reader.read([probe], { trace: true });
          return { zone, passes: passes.map((p) => [p.pass, p.legacy, p.lstm]) };
        };
        const first = await seen();
        expect(first.passes.length).toBeGreaterThan(0);
        for (let i = 0; i < 10; i++) await reader.read([other]);
        // With the legacy engine's adaptive classifier learning, every pass read other text here.
        expect(await seen()).toEqual(first);
      } finally {
        await reader.close();
      }
    });
  },
);
