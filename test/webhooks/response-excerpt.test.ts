import { describe, expect, it } from 'vitest';
import { ExcerptCollector, RESPONSE_EXCERPT_BYTES } from '../../src/webhooks/response-excerpt.js';

/** The excerpt of a body that arrives in these chunks; `ended` whether its end was seen. */
function excerptOf(chunks: (string | Buffer)[], ended = true) {
  const collector = new ExcerptCollector();
  let fullAt = -1;
  chunks.forEach((c, i) => {
    if (collector.add(Buffer.isBuffer(c) ? c : Buffer.from(c)) && fullAt < 0) fullAt = i;
  });
  return { ...collector.result(ended), fullAt };
}

describe("the start of a receiver's answer body, as the delivery log keeps it (pure)", () => {
  it('keeps a short body whole, and an empty one as empty', () => {
    expect(excerptOf(['{"error":', '"invalid signature"}'])).toEqual({
      body: '{"error":"invalid signature"}',
      truncated: false,
      fullAt: -1,
    });
    expect(excerptOf([])).toEqual({ body: '', truncated: false, fullAt: -1 });
  });

  it('keeps the first 1 KiB of a longer body, says it went on, and is full as soon as a byte more came', () => {
    expect(RESPONSE_EXCERPT_BYTES).toBe(1024);
    const exactly = excerptOf(['a'.repeat(1024)]);
    expect(exactly).toEqual({ body: 'a'.repeat(1024), truncated: false, fullAt: -1 });
    // 64 KiB in 1000-byte chunks: full at the second chunk, whatever follows.
    const long = excerptOf(Array.from({ length: 64 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(1000)));
    expect(long.body).toBe('a'.repeat(1000) + 'b'.repeat(24));
    expect(long).toMatchObject({ truncated: true, fullAt: 1 });
  });

  it('counts a body cut off before its end as truncated, even when short', () => {
    expect(excerptOf(['partial'], false)).toEqual({ body: 'partial', truncated: true, fullAt: -1 });
  });

  it('reads UTF-8 as text: a character split by the bound is left out, invalid bytes and NUL read as U+FFFD', () => {
    // "a" then two-byte characters: the 1024th byte is the first half of one.
    const split = excerptOf(['a' + 'é'.repeat(600)]);
    expect(split.body).toBe('a' + 'é'.repeat(511));
    expect(split.truncated).toBe(true);
    // A body that ends with half a character: the half is shown as U+FFFD (it is the whole answer).
    expect(excerptOf([Buffer.from([0x6f, 0x6b, 0xc3])]).body).toBe('ok\uFFFD');
    // PostgreSQL text cannot hold NUL; bytes that are not UTF-8 are not passed on either.
    expect(excerptOf([Buffer.from([0x61, 0x00, 0x62, 0xff, 0x63])]).body).toBe('a\uFFFDb\uFFFDc');
    // At most one character per byte kept.
    const binary = excerptOf([Buffer.alloc(4096, 0xff)]);
    expect([...binary.body]).toHaveLength(1024);
  });
});
