/**
 * Streaming metadata strippers: each takes the image bytes chunk by chunk and returns the
 * bytes to keep, so an upload is cleaned without ever being held in memory whole.
 * JPEG: APP1 (EXIF, XMP) and APP13 (IPTC) segments are dropped, every APPn and comment segment
 * after the first scan too (a progressive JPEG has tables and scans there, no application data),
 * and everything after the end-of-image marker. PNG: eXIf, tEXt, zTXt and iTXt chunks are dropped,
 * and everything after IEND. WebP: the RIFF size sits in the header, so EXIF and XMP chunks are
 * not removed but overwritten in place (renamed JUNK, contents zeroed) and the VP8X flags cleared;
 * bytes beyond the size the RIFF header gives are dropped. Nothing a decoder would skip survives
 * to be served or stored under the image's name.
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
/** APP0–APP15 and COM: application data and comments, which belong before the first scan if anywhere. */
const JPEG_APPLICATION_DATA = (m: number) => (m >= 0xe0 && m <= 0xef) || m === 0xfe;
/** What may follow 0xFF inside entropy-coded data: stuffing, fill, and restart markers. */
const JPEG_IN_SCAN = (m: number) => m === 0x00 || m === 0xff || (m >= 0xd0 && m <= 0xd7);

function jpegStripper(): MetadataStripper {
  let head: Need | null = new Need(2);
  let marker: Need | null = null;
  let pass = 0; // bytes to copy through
  let skip = 0; // bytes to drop
  let scan = false; // in entropy-coded data: copied verbatim up to the next marker that is not part of it
  let scanAfterPass = false;
  let scanned = false; // a scan has begun: application segments from here on are dropped whatever their number
  let heldFF = false; // the scan's last byte so far was 0xFF, not sent yet: it may begin a marker in the next chunk
  let ended = false; // EOI passed: whatever follows (a motion-photo video, a second image with its own EXIF) is dropped
  const startSegment = (code: number) => {
    marker = new Need(4);
    marker.take(Buffer.from([0xff, code]), 0);
  };
  return {
    push(chunk) {
      const out: Buffer[] = [];
      let i = 0;
      while (i < chunk.length && !ended) {
        if (scan) {
          // In entropy-coded data 0xFF is followed by 0x00 (stuffing), a restart marker or fill
          // 0xFF; FF D9 ends the image, and any other marker ends the scan (a progressive JPEG's
          // tables and next scan, or a segment slipped in between).
          let afterFF = heldFF;
          let stop = -1;
          for (let j = i; j < chunk.length; j++) {
            const byte = chunk[j]!;
            if (afterFF && !JPEG_IN_SCAN(byte)) {
              stop = j;
              break;
            }
            afterFF = byte === 0xff;
          }
          if (stop < 0) {
            // The whole chunk is scan data, but a last 0xFF waits for the byte that tells what it is.
            if (heldFF) out.push(Buffer.from([0xff]));
            out.push(chunk.subarray(i, afterFF ? chunk.length - 1 : chunk.length));
            heldFF = afterFF;
            break;
          }
          const code = chunk[stop]!;
          // The 0xFF before `code` is in this chunk, or it is the one held back.
          if (heldFF && stop > i) out.push(Buffer.from([0xff]));
          out.push(chunk.subarray(i, stop > i ? stop - 1 : i));
          heldFF = false;
          scan = false;
          i = stop + 1;
          if (code === 0xd9) {
            out.push(Buffer.from([0xff, 0xd9]));
            ended = true;
          } else {
            startSegment(code);
          }
          continue;
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
          if (pass === 0 && scanAfterPass) {
            scanAfterPass = false;
            scan = true;
          }
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
        if (bytes[0] === 0xff && code === 0xff) {
          // A fill byte before a marker, met across a chunk boundary: send it on, the marker is next.
          out.push(bytes.subarray(0, 1));
          marker = new Need(2);
          marker.take(bytes, 1);
          continue;
        }
        if (bytes[0] !== 0xff || JPEG_STANDALONE(code) || code === 0xd9) {
          // The end, or not a segment structure we understand: copy on as scan data, up to EOI.
          marker = null;
          if (code === 0xd9 && bytes[0] === 0xff) {
            out.push(bytes);
            ended = true;
          } else {
            out.push(bytes.subarray(0, 1));
            scan = true;
            heldFF = bytes[1] === 0xff;
            if (!heldFF) out.push(bytes.subarray(1));
          }
          continue;
        }
        if (need.n === 2) {
          startSegment(code);
          continue;
        }
        marker = null;
        const length = bytes.readUInt16BE(2);
        if (JPEG_DROPPED.has(code) || (scanned && JPEG_APPLICATION_DATA(code))) {
          skip = Math.max(0, length - 2);
        } else {
          out.push(bytes);
          pass = Math.max(0, length - 2);
          // SOS: once its header is through, the scan follows and is copied verbatim.
          if (code === 0xda) {
            scanned = true;
            scanAfterPass = pass > 0;
            scan = pass === 0;
          }
        }
      }
      return out;
    },
  };
}

/** What a container walker does with one chunk: its (possibly rewritten) header, then its body copied, dropped or zeroed. */
interface ChunkPlan {
  header: Buffer | null;
  body: number;
  action: 'pass' | 'drop' | 'blank';
  /** Rewrites the first body byte on its way through (WebP VP8X flags). */
  patchFirst?: (byte: number) => number;
  /** The image ends with this chunk (PNG's IEND): whatever follows it is dropped. */
  last?: boolean;
}

/**
 * Walks a signature followed by 8-byte chunk headers (PNG, RIFF/WebP), chunk by chunk as bytes
 * arrive. `length` gives the file's whole length from its signature when the format says it
 * (RIFF); bytes beyond it, or after a `last` chunk, are dropped.
 */
function chunkStripper(
  signatureBytes: number,
  plan: (header: Buffer) => ChunkPlan,
  length?: (signature: Buffer) => number,
): MetadataStripper {
  let signature: Need | null = new Need(signatureBytes);
  let header: Need | null = null;
  let remaining = 0;
  let action: ChunkPlan['action'] = 'pass';
  let patchFirst: ChunkPlan['patchFirst'];
  let last = false;
  let ended = false;
  let walked = 0; // input bytes of the chunks pushed before this one
  let limit = Infinity; // input bytes that belong to the image
  return {
    push(chunk) {
      const out: Buffer[] = [];
      let end = Math.max(0, Math.min(chunk.length, limit - walked));
      let i = 0;
      while (i < end && !ended) {
        if (signature) {
          i = signature.take(chunk, i);
          if (signature.done) {
            out.push(signature.bytes);
            if (length) limit = length(signature.bytes);
            end = Math.max(0, Math.min(chunk.length, limit - walked));
            signature = null;
          }
          continue;
        }
        if (remaining > 0) {
          const n = Math.min(remaining, end - i);
          if (action === 'blank') out.push(Buffer.alloc(n));
          else if (action === 'pass') {
            let piece = chunk.subarray(i, i + n);
            if (patchFirst) {
              piece = Buffer.from(piece);
              piece[0] = patchFirst(piece[0]!);
              patchFirst = undefined;
            }
            out.push(piece);
          }
          remaining -= n;
          i += n;
          if (remaining === 0 && last) ended = true;
          continue;
        }
        header ??= new Need(8);
        i = header.take(chunk.subarray(0, end), i);
        if (!header.done) continue;
        const next = plan(header.bytes);
        header = null;
        if (next.header) out.push(next.header);
        ({ body: remaining, action, patchFirst } = next);
        last = next.last === true;
        if (remaining === 0 && last) ended = true;
      }
      walked += chunk.length;
      return out;
    },
  };
}

const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

function pngStripper(): MetadataStripper {
  return chunkStripper(8, (header) => {
    const body = header.readUInt32BE(0) + 4; // data + CRC
    const type = header.toString('latin1', 4, 8);
    if (PNG_DROPPED.has(type)) return { header: null, body, action: 'drop' };
    return { header, body, action: 'pass', last: type === 'IEND' };
  });
}

const WEBP_BLANKED = new Set(['EXIF', 'XMP ']);

/** A RIFF file is its 8-byte header and the number of bytes that header's size field gives. */
const riffLength = (signature: Buffer) => 8 + signature.readUInt32LE(4);

function webpStripper(): MetadataStripper {
  return chunkStripper(
    12,
    (header) => {
      const size = header.readUInt32LE(4);
      const body = size + (size % 2);
      const fourcc = header.toString('latin1', 0, 4);
      if (WEBP_BLANKED.has(fourcc))
        return { header: Buffer.concat([Buffer.from('JUNK', 'latin1'), header.subarray(4)]), body, action: 'blank' };
      // The first byte of VP8X data holds the flags: clear EXIF (0x08) and XMP (0x04).
      return { header, body, action: 'pass', ...(fourcc === 'VP8X' && body > 0 ? { patchFirst: (b: number) => b & ~0x0c } : {}) };
    },
    riffLength,
  );
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
