// Test images without image libraries: valid PNG structure (signature, IHDR, IDAT, IEND, CRCs).
// The chunks are scripts/fixtures/images.ts's, which the identity tests build their images from.
import { pngChunk } from '../scripts/fixtures/images.js';

/** A structurally valid PNG (4000×3000) of `size` bytes (up to 12 fewer): what a phone camera sends. */
export function documentImage(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4000, 0);
  ihdr.writeUInt32BE(3000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const fixed = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  const chunks: Buffer[] = [];
  let remaining = size - fixed.length;
  while (remaining > 12) {
    const n = Math.min(remaining - 12, 1 << 20);
    const data = Buffer.alloc(n, 0x5a);
    data.writeUInt32BE(chunks.length, 0);
    chunks.push(pngChunk('IDAT', data));
    remaining -= n + 12;
  }
  return Buffer.concat([fixed.subarray(0, 33), ...chunks, fixed.subarray(33)]);
}
