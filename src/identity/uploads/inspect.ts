import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { imageSize } from 'image-size';
import type { BlobStore } from '../../blobs/store.js';
import { IdentityError, identityErrors as errors } from '../errors.js';
import {
  MAX_IMAGE_ASPECT,
  MAX_IMAGE_SIDE,
  MAX_UPLOAD_BYTES,
  MIN_IMAGE_HEIGHT,
  MIN_IMAGE_WIDTH,
  MIN_UPLOAD_BYTES,
} from '../upload-limits.js';
import { MAX_IMAGE_PIXELS } from '../../recognition/image-bounds.js';
import { metadataStripper, sniffImageType, type ImageType, type MetadataStripper } from './strip-metadata.js';

/** How much of the cleaned image is kept to read its header; the rest streams straight through. */
const HEAD_BYTES = 256 * 1024;
/** The header is tried again each time this much more of it has arrived (not on every tiny chunk). */
const HEADER_RETRY_BYTES = 1024;

export interface StoredImage {
  blobKey: string;
  type: ImageType;
  width: number;
  height: number;
  /** SHA-256 (hex) of the stored bytes, metadata already stripped. */
  sha256: string;
  size: number;
}

/**
 * A transform that checks an upload while it streams: the MAX_UPLOAD_BYTES cap (the upload stops the
 * moment it is crossed), the type by magic bytes, metadata stripping, SHA-256 of what is
 * stored, and the first bytes kept for the header parse. Memory stays flat whatever the size.
 */
class ImageInspector extends Transform {
  received = 0;
  type: ImageType | null = null;
  private sniff: Buffer[] = [];
  private sniffed = 0;
  private stripper: MetadataStripper | null = null;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  stored = 0;
  /** Head bytes when the header was last tried; -1 once it was read. */
  private headerTriedAt = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > MAX_UPLOAD_BYTES) return done(errors.fileTooLarge());
    if (!this.stripper) {
      this.sniff.push(chunk);
      this.sniffed += chunk.length;
      if (this.sniffed < 12) return done();
      const first = Buffer.concat(this.sniff);
      this.sniff = [];
      if (!this.start(first)) return done(errors.unsupportedImageType());
      this.emit_(this.stripper!.push(first));
      return done(this.refusedCanvas());
    }
    this.emit_(this.stripper.push(chunk));
    done(this.refusedCanvas());
  }

  /**
   * A header whose canvas is refused (refusedShape) stops the upload as soon as it can be read,
   * before the rest is stored: decoding such an image (a "decode bomb") would hold a worker.
   */
  private refusedCanvas(): IdentityError | null {
    if (this.headerTriedAt < 0 || this.headBytes - this.headerTriedAt < HEADER_RETRY_BYTES) return null;
    this.headerTriedAt = this.headBytes;
    const dims = this.dimensions();
    // Not readable yet: try again with more bytes; with the whole head kept, the end of the upload decides.
    if (!dims) {
      if (this.headBytes >= HEAD_BYTES) this.headerTriedAt = -1;
      return null;
    }
    this.headerTriedAt = -1;
    return refusedShape(dims);
  }

  override _flush(done: TransformCallback): void {
    if (!this.stripper) {
      const first = Buffer.concat(this.sniff);
      if (!this.start(first)) return done(errors.unsupportedImageType());
      this.emit_(this.stripper!.push(first));
    }
    if (this.received < MIN_UPLOAD_BYTES) return done(errors.fileTooSmall());
    done();
  }

  private start(first: Buffer): boolean {
    this.type = sniffImageType(first);
    if (!this.type) return false;
    this.stripper = metadataStripper(this.type);
    return true;
  }

  private emit_(parts: Buffer[]): void {
    for (const part of parts) {
      if (part.length === 0) continue;
      this.hash.update(part);
      this.stored += part.length;
      if (this.headBytes < HEAD_BYTES) {
        const keep = part.subarray(0, HEAD_BYTES - this.headBytes);
        this.head.push(Buffer.from(keep));
        this.headBytes += keep.length;
      }
      this.push(part);
    }
  }

  dimensions(): { width: number; height: number } | null {
    try {
      const size = imageSize(Buffer.concat(this.head));
      const expected = { jpeg: 'jpg', png: 'png', webp: 'webp' }[this.type!];
      if (size.type !== expected || !size.width || !size.height) return null;
      return { width: size.width, height: size.height };
    } catch {
      return null;
    }
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * The refusal of an image by its header's width and height alone (docs/identity.md, "Bounded identity
 * work"), or null: too many pixels, a side too long, too long for its width, or smaller than the
 * pipeline's minimum — that last rule needs nothing but the image, so it answers now rather than
 * as a decline after the whole capture.
 */
export function refusedShape({ width, height }: { width: number; height: number }): IdentityError | null {
  const longer = Math.max(width, height);
  const shorter = Math.min(width, height);
  if (width * height > MAX_IMAGE_PIXELS) return errors.tooManyPixels(width, height);
  if (longer > MAX_IMAGE_SIDE) return errors.sideTooLong(width, height);
  if (longer > MAX_IMAGE_ASPECT * shorter) return errors.tooElongated(width, height);
  if (width < MIN_IMAGE_WIDTH || height < MIN_IMAGE_HEIGHT) return errors.imageTooSmall(width, height);
  return null;
}

/**
 * Streams one uploaded file into the blob store under `blobKey`, checked and cleaned on the
 * way. On any refusal nothing stays on disk (the store removes its partial file).
 */
export async function storeImage(blobs: BlobStore, blobKey: string, source: Readable): Promise<StoredImage> {
  const inspector = new ImageInspector();
  // Whichever side failed first decides whose fault it is: the upload stream (400) or the store (500).
  let firstFailure: 'source' | 'store' | undefined;
  source.once('error', () => {
    firstFailure ??= 'source';
  });
  const writing = blobs.put(blobKey, inspector);
  // A store that fails stops consuming: end the reading side too instead of stalling on backpressure.
  writing.catch((err: unknown) => {
    firstFailure ??= 'store';
    inspector.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  const reading = pipeline(source, inspector);
  const [read, written] = await Promise.allSettled([reading, writing]);
  if (read.status === 'rejected' || written.status === 'rejected') {
    await blobs.delete(blobKey).catch(() => {});
    const reasons = [read, written].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    const refusal = reasons.find((r) => r instanceof IdentityError);
    if (refusal) throw refusal;
    if (firstFailure === 'store' && written.status === 'rejected') throw written.reason;
    throw errors.uploadEndedEarly();
  }
  const dims = inspector.dimensions();
  const refusal = dims ? refusedShape(dims) : errors.unreadableImageHeader();
  if (!dims || refusal) {
    await blobs.delete(blobKey);
    throw refusal;
  }
  return { blobKey, type: inspector.type!, ...dims, sha256: inspector.digest(), size: inspector.stored };
}
