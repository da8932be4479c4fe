import { deflateSync } from 'node:zlib';
import { pngChunk } from '../../bench/png.js';

/** Deterministic bytes from a seed, so two images differ exactly when their seeds do. */
export function noise(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** A valid RGB PNG of width×height; `noisyRows` rows of noise set its size; optional tEXt and eXIf chunks. */
export function png(width: number, height: number, opts: { seed?: number; noisyRows?: number; text?: string; exif?: Buffer } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rowBytes = 1 + width * 3;
  const raw = Buffer.alloc(rowBytes * height);
  const rows = Math.min(height, opts.noisyRows ?? 4);
  const n = noise(opts.seed ?? 1, rowBytes * rows);
  for (let r = 0; r < rows; r++) {
    n.copy(raw, r * rowBytes + 1, r * rowBytes + 1, (r + 1) * rowBytes);
  }
  const chunks = [pngChunk('IHDR', ihdr)];
  if (opts.text) chunks.push(pngChunk('tEXt', Buffer.from(`Comment\0${opts.text}`, 'latin1')));
  if (opts.exif) chunks.push(pngChunk('eXIf', opts.exif));
  chunks.push(pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

/** A small PNG whose header claims width×height (a "decode bomb"): its data is a few kilobytes of a 64×64 image. */
export function pngClaiming(width: number, height: number): Buffer {
  const real = png(64, 64, { noisyRows: 64 });
  const ihdr = Buffer.from(real.subarray(16, 29));
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([real.subarray(0, 8), pngChunk('IHDR', ihdr), real.subarray(33)]);
}

/** A TIFF/EXIF block with a GPS IFD (latitude reference "N", latitude 52°31'12"). */
export function exifWithGps(): Buffer {
  const tiff = Buffer.alloc(96);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  // IFD0: one entry, GPSInfo (0x8825) → offset 26.
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x8825, 10);
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(26, 18);
  tiff.writeUInt32BE(0, 22);
  // GPS IFD: GPSLatitudeRef "N", GPSLatitude (3 rationals at 56).
  tiff.writeUInt16BE(2, 26);
  tiff.writeUInt16BE(1, 28);
  tiff.writeUInt16BE(2, 30);
  tiff.writeUInt32BE(2, 32);
  tiff.write('N\0', 36, 'latin1');
  tiff.writeUInt16BE(2, 40);
  tiff.writeUInt16BE(5, 42);
  tiff.writeUInt32BE(3, 44);
  tiff.writeUInt32BE(56, 48);
  tiff.writeUInt32BE(0, 52);
  [52, 1, 31, 1, 12, 1].forEach((v, i) => tiff.writeUInt32BE(v, 56 + i * 4));
  tiff.write('GPSMARKER', 80, 'latin1');
  return tiff;
}

function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** A baseline JPEG structure (JFIF, DQT, SOF0, DHT, SOS, scan, EOI) of width×height; optional EXIF APP1 with GPS. */
export function jpeg(width: number, height: number, opts: { seed?: number; scanBytes?: number; exif?: boolean } = {}): Buffer {
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const parts = [Buffer.from([0xff, 0xd8]), segment(0xe0, jfif)];
  if (opts.exif) parts.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifWithGps()])));
  parts.push(segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])));
  const sof = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  parts.push(segment(0xc0, sof));
  parts.push(segment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.alloc(0)])));
  parts.push(segment(0xda, Buffer.from([3, 1, 0, 2, 0, 3, 0, 0, 63, 0])));
  const scan = noise(opts.seed ?? 7, opts.scanBytes ?? 4000).map((b) => (b === 0xff ? 0xfe : b));
  parts.push(Buffer.from(scan), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

function riffChunk(fourcc: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** An extended WebP (VP8X canvas width×height, a VP8L bitstream header, optional EXIF and XMP chunks). */
export function webp(
  width: number,
  height: number,
  opts: { seed?: number; payloadBytes?: number; exif?: boolean; xmp?: string } = {},
): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = (opts.exif ? 0x08 : 0) | (opts.xmp ? 0x04 : 0);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const vp8l = Buffer.concat([Buffer.from([0x2f]), Buffer.alloc(4), noise(opts.seed ?? 3, opts.payloadBytes ?? 3000)]);
  const w = width - 1;
  const h = height - 1;
  vp8l[1] = w & 0xff;
  vp8l[2] = ((w >> 8) & 0x3f) | ((h & 0x3) << 6);
  vp8l[3] = (h >> 2) & 0xff;
  vp8l[4] = (h >> 10) & 0xf;
  const chunks = [riffChunk('VP8X', vp8x), riffChunk('VP8L', vp8l)];
  if (opts.exif) chunks.push(riffChunk('EXIF', exifWithGps()));
  if (opts.xmp) chunks.push(riffChunk('XMP ', Buffer.from(opts.xmp, 'latin1')));
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}
