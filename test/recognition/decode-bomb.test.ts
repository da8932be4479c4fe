import { describe, expect, it } from 'vitest';
import { decodeForFaces } from '../../src/recognition/faces/decode.js';
import { jpeg, png, pngClaiming } from '../../scripts/fixtures/images.js';

describe('decoding for the face pipeline is bounded in pixels', () => {
  it('refuses an image whose header claims more than 40 megapixels, before decoding it', async () => {
    // 16383×16383 is sharp's own default ceiling: without a bound of ours it would be decoded.
    await expect(decodeForFaces(pngClaiming(16383, 16383), 640)).rejects.toThrow(/pixel limit/);
    await expect(decodeForFaces(pngClaiming(8000, 5001), 640)).rejects.toThrow(/pixel limit/);
    await expect(decodeForFaces(jpeg(10000, 5000), 640)).rejects.toThrow(/pixel limit/);
  });

  it('decodes an ordinary image to RGB bytes no larger than maxSide', async () => {
    const { info, data } = await decodeForFaces(png(800, 600, { noisyRows: 600 }), 640);
    expect([info.width, info.height, info.channels]).toEqual([640, 480, 3]);
    expect(data.length).toBe(640 * 480 * 3);
  });
});
