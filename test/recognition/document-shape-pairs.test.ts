import { describe, expect, it } from 'vitest';
import type { ZoneGlyph } from '../../src/recognition/document/glyph-heights.js';
import { directedWorst, pooled } from '../../scripts/documents/shape-pairs.js';

/** One row's glyphs at a 24 px pitch with the likenesses given. */
const row = (likenesses: Record<string, number>[]): ZoneGlyph[] =>
  likenesses.map((likeness, i) => ({ cx: 40 + i * 24, width: 15, height: 42, likeness }));

describe('the measured pairs the shape margins come from (scripts/documents/shape-pairs.ts)', () => {
  // A two-line "zone" of two places a line: what each printed glyph resembled.
  const documents = [
    {
      truth: ['1T', '8S'],
      passes: [
        {
          image: 1,
          glyphs: [
            row([
              { '1': 0, T: 1 },
              { T: 0, '1': 1 },
            ]),
            row([
              { '8': 0, S: 1 },
              { S: 0, '8': 1 },
            ]),
          ],
        },
        {
          image: 0,
          glyphs: [
            row([
              { '1': 0.8, T: 0.9 },
              { T: 0.9, '1': 0.7 },
            ]),
            row([
              { '8': 0.9, S: 0.7 },
              { S: 0.95, '8': 0.6, '<': 0.99 },
            ]),
          ],
        },
      ],
    },
    {
      truth: ['1T', '8<'],
      passes: [
        {
          image: 0,
          glyphs: [
            row([
              { '1': 0.9, T: 0.85 },
              { T: 0.9, '1': 0.8 },
            ]),
            row([{ '8': 0.9, S: 0.85 }, { '<': 0.9 }]),
          ],
        },
      ],
    },
  ];

  it('takes each printed glyph of the image the zone was read from against every other character, the filler aside', () => {
    const directed = directedWorst(documents);
    // A printed 1 resembled T more by 0.1 once; a printed T never resembled 1 more.
    expect(directed.get('1T')).toEqual({ glyphs: 2, worst: expect.closeTo(0.1, 9) });
    expect(directed.get('T1')).toEqual({ glyphs: 2, worst: expect.closeTo(-0.1, 9) });
    expect(directed.get('8S')).toEqual({ glyphs: 2, worst: expect.closeTo(-0.05, 9) });
    expect(directed.get('S8')).toEqual({ glyphs: 1, worst: expect.closeTo(-0.35, 9) });
    expect([...directed.keys()].some((k) => k.includes('<'))).toBe(false);
  });

  it('pools the two directions of a pair: the fewer glyphs, the worse preference', () => {
    expect(pooled(directedWorst(documents))).toEqual({ '1T': [2, 0.1], '8S': [1, -0.05] });
  });
});
