import { describe, expect, it } from 'vitest';
import { MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH } from '../../src/identity/upload-limits.js';
import { judgeDocument, measureDocument } from '../../web/capture/quality/document-check.js';
import { cases, pixels } from '../../scripts/fixtures/document-checks.js';

/** The capture page's checks of a document photo before it is sent (docs/identity.md, "Checks before sending"). */
describe('document photo checks', () => {
  it('passes every fixture photo and refuses each bad copy for its own reason', async () => {
    const judged: [string, string | null][] = [];
    const expected: [string, string | null][] = [];
    for (const c of await cases()) {
      judged.push([c.name, judgeDocument(measureDocument(await pixels(c.image)))]);
      expected.push([c.name, c.expected]);
    }
    expect(judged).toEqual(expected);
    // Both kinds are there: photos that pass, and every problem at least once.
    expect(new Set(expected.map(([, e]) => e))).toEqual(new Set([null, 'blurry', 'glare', 'too_small', 'no_document']));
  }, 120_000);

  it('uses the server’s minimum size exactly: one pixel under either side is too small', () => {
    const sharp = { sharpness: 500, glare: 0, coverage: 0.5 };
    expect(judgeDocument({ ...sharp, width: MIN_IMAGE_WIDTH, height: MIN_IMAGE_HEIGHT })).toBeNull();
    expect(judgeDocument({ ...sharp, width: MIN_IMAGE_WIDTH - 1, height: 2000 })).toBe('too_small');
    expect(judgeDocument({ ...sharp, width: 2000, height: MIN_IMAGE_HEIGHT - 1 })).toBe('too_small');
  });

  it('measures a tiny or one-pixel picture without failing', () => {
    const one = { width: 1, height: 1, data: new Uint8Array([255, 255, 255, 255]) };
    expect(measureDocument(one)).toEqual({ width: 1, height: 1, sharpness: 0, glare: 1, coverage: 0 });
    expect(judgeDocument(measureDocument(one))).toBe('too_small');
  });
});
