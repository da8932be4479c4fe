import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/lib/crypto.js';

describe('randomHex (pooled CSPRNG bytes)', () => {
  it('answers lowercase hex of the length asked, never the same bytes twice, across many pool refills', () => {
    const seen = new Set<string>();
    // 16-byte nonces: 256 per 4 KiB pool, so this refills the pool about 40 times.
    for (let i = 0; i < 10_000; i++) {
      const hex = randomHex(16);
      expect(hex).toMatch(/^[0-9a-f]{32}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(10_000);
  });

  it('serves lengths that straddle the end of the pool from fresh bytes', () => {
    const sizes = [7, 4000, 300, 4096, 1];
    for (const size of sizes) expect(randomHex(size)).toHaveLength(size * 2);
  });

  it('refuses more than one pool at once', () => {
    expect(() => randomHex(4097)).toThrow(RangeError);
  });
});
