/**
 * Streaming metadata strippers: each takes the image bytes chunk by chunk and returns the
 * bytes to keep, so an upload is cleaned without ever being held in memory whole.
 * JPEG: APP1 (EXIF, XMP) and APP13 (IPTC) segments are dropped. PNG: eXIf, tEXt, zTXt and iTXt
 * chunks are dropped. WebP: the RIFF size sits in the header, so EXIF and XMP chunks are not
 * removed but overwritten in place (renamed JUNK, contents zeroed) and the VP8X flags cleared.
 */
export type ImageType = 'jpeg' | 'png' | 'webp';

export interface MetadataStripper {
  push(chunk: Buffer): Buffer[];
}

/** Collects exactly `n` bytes across chunks. */
class Need {
  private parts: Buffer[] = [];
  private have = 0;
  constructor(readonly n: number) {}
  /** Consumes from `chunk` at `offset`; returns the new offset. */
  take(chunk: Buffer, offset: number): number {
    const want = Math.min(this.n - this.have, chunk.length - offset);
    this.parts.push(chunk.subarray(offset, offset + want));
    this.have += want;
    return offset + want;
  }
  get done(): boolean {
    return this.have === this.n;
  }
  get bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const JPEG_DROPPED = new Set([0xe1, 0xed]);
// Markers with no length field: TEM, RST0-7 (SOI handled as the 2-byte start).
const JPEG_STANDALONE = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7);

function jpegStripper(): MetadataStripper {
  let head: Need | null = new Need(2);
  let marker: Need | null = null;
  let pass = 0; // bytes to copy through
  let skip = 0; // bytes to drop
  let scan = false; // after SOS everything is entropy-coded data: copy verbatim
  let scanAfterPass = false;
  return {
    push(chunk) {
      const out: Buffer[] = [];
      let i = 0;
      while (i < chunk.length) {
        if (scan) {
          out.push(chunk.subarray(i));
          break;
        }
        if (head) {
          i = head.take(chunk, i);
          if (head.done) {
            out.push(head.bytes);
            head = null;
          }
          continue;
        }
        if (pass > 0) {
          const n = Math.min(pass, chunk.length - i);
          out.push(chunk.subarray(i, i + n));
          pass -= n;
          i += n;
          if (pass === 0 && scanAfterPass) scan = true;
          continue;
        }
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i);
          skip -= n;
          i += n;
          continue;
        }
        if (!marker) {
          // Fill bytes (0xFF) may precede a marker.
          if (chunk[i] === 0xff && i + 1 < chunk.length && chunk[i + 1] === 0xff) {
            out.push(chunk.subarray(i, i + 1));
            i += 1;
            continue;
          }
          marker = new Need(2);
        }
        const need: Need = marker;
        i = need.take(chunk, i);
        if (!need.done) continue;
        const bytes = need.bytes;
        const code = bytes[1]!;
        if (bytes[0] !== 0xff || JPEG_STANDALONE(code) || code === 0xd9) {
          // Not a segment structure we understand (or the end): copy the rest unchanged.
          out.push(bytes);
          marker = null;
          scan = true;
          continue;
        }
        if (need.n === 2) {
          marker = new Need(4);
          marker.take(bytes, 0);
          continue;
        }
        marker = null;
        const length = bytes.readUInt16BE(2);
        if (JPEG_DROPPED.has(code)) {
          skip = Math.max(0, length - 2);
        } else {
          out.push(bytes);
          pass = Math.max(0, length - 2);
          // SOS: once its header is through, the scan follows and is copied verbatim.
          if (code === 0xda) {
            scanAfterPass = true;
            scan = pass === 0;
          }
        }
      }
      return out;
    },
  };
}

const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

function pngStripper(): MetadataStripper {
  let signature: Need | null = new Need(8);
  let header: Need | null = null;
  let pass = 0;
  let skip = 0;
  return {
    push(chunk) {
      const out: Buffer[] = [];
      let i = 0;
      while (i < chunk.length) {
        if (signature) {
          i = signature.take(chunk, i);
          if (signature.done) {
            out.push(signature.bytes);
            signature = null;
          }
          continue;
        }
        if (pass > 0 || skip > 0) {
          const n = Math.min(pass || skip, chunk.length - i);
          if (pass > 0) {
            out.push(chunk.subarray(i, i + n));
            pass -= n;
          } else skip -= n;
          i += n;
          continue;
        }
        header ??= new Need(8);
        i = header.take(chunk, i);
        if (!header.done) continue;
        const bytes = header.bytes;
        header = null;
        const rest = bytes.readUInt32BE(0) + 4; // data + CRC
        if (PNG_DROPPED.has(bytes.toString('latin1', 4, 8))) skip = rest;
        else {
          out.push(bytes);
          pass = rest;
        }
      }
      return out;
    },
  };
}

const WEBP_BLANKED = new Set(['EXIF', 'XMP ']);

function webpStripper(): MetadataStripper {
  let riff: Need | null = new Need(12);
  let header: Need | null = null;
  let pass = 0;
  let blank = 0;
  let vp8xFlags = false;
  return {
    push(chunk) {
      const out: Buffer[] = [];
      let i = 0;
      while (i < chunk.length) {
        if (riff) {
          i = riff.take(chunk, i);
          if (riff.done) {
            out.push(riff.bytes);
            riff = null;
          }
          continue;
        }
        if (pass > 0) {
          const n = Math.min(pass, chunk.length - i);
          let piece = chunk.subarray(i, i + n);
          if (vp8xFlags) {
            // The first byte of VP8X data holds the flags: clear EXIF (0x08) and XMP (0x04).
            piece = Buffer.from(piece);
            piece[0] = piece[0]! & ~0x0c;
            vp8xFlags = false;
          }
          out.push(piece);
          pass -= n;
          i += n;
          continue;
        }
        if (blank > 0) {
          const n = Math.min(blank, chunk.length - i);
          out.push(Buffer.alloc(n));
          blank -= n;
          i += n;
          continue;
        }
        header ??= new Need(8);
        i = header.take(chunk, i);
        if (!header.done) continue;
        const bytes = header.bytes;
        header = null;
        const size = bytes.readUInt32LE(4);
        const padded = size + (size % 2);
        const fourcc = bytes.toString('latin1', 0, 4);
        if (WEBP_BLANKED.has(fourcc)) {
          out.push(Buffer.concat([Buffer.from('JUNK', 'latin1'), bytes.subarray(4)]));
          blank = padded;
        } else {
          out.push(bytes);
          pass = padded;
          vp8xFlags = fourcc === 'VP8X' && padded > 0;
        }
      }
      return out;
    },
  };
}

export function metadataStripper(type: ImageType): MetadataStripper {
  return type === 'jpeg' ? jpegStripper() : type === 'png' ? pngStripper() : webpStripper();
}

/** The image type by magic bytes (needs the first 12 bytes), or null. */
export function sniffImageType(head: Buffer): ImageType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}
