import { describe, expect, it } from 'vitest';
import { sharpened } from '../../src/recognition/document/sharpen.js';
import type { Gray } from '../../src/recognition/document/marks.js';

/** A row image: paper (220) left, a stroke (40) right, the edge between them blurred over `ramp` pixels. */
function edge(width: number, ramp: number): Gray {
  const row = Array.from({ length: width }, (_, x) => {
    const t = Math.min(1, Math.max(0, (x - width / 2 + ramp / 2) / ramp));
    return Math.round(220 + (40 - 220) * t);
  });
  const height = 9;
  return { data: Uint8Array.from({ length: width * height }, (_, i) => row[i % width]!), width, height };
}

describe('the unsharp mask the zone passes read (pure; docs/document-reading.md, step 2)', () => {
  it('leaves flat paper and a flat stroke as they are', () => {
    const flat: Gray = { data: new Uint8Array(20 * 20).fill(200), width: 20, height: 20 };
    expect([...sharpened(flat, 32).data].every((v) => v === 200)).toBe(true);
  });

  it('steepens a blurred edge: the paper beside it lighter, the stroke beside it darker, both within 0 to 255', () => {
    const blurred = edge(40, 8);
    const out = sharpened(blurred, 32);
    const at = (g: Gray, x: number) => g.data[4 * g.width + x]!;
    // Just before the ramp the paper gets lighter, just after it the stroke gets darker.
    expect(at(out, 15)).toBeGreaterThan(at(blurred, 15));
    expect(at(out, 24)).toBeLessThan(at(blurred, 24));
    expect([...out.data].every((v) => v >= 0 && v <= 255)).toBe(true);
    // Far from the edge nothing changes.
    expect(at(out, 2)).toBe(at(blurred, 2));
    expect(at(out, 38)).toBe(at(blurred, 38));
  });
});
