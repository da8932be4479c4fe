import { Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobNotFound, BlobStoreUnavailable, checkBlobKey, type BlobStore } from './store.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, Ceph, R2…); AWS itself when absent. */
  endpoint?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`, which most self-hosted services need. */
  forcePathStyle: boolean;
  /** Tests give s3rver's fixed keys; otherwise the SDK's chain: AWS_ACCESS_KEY_ID…, AWS_PROFILE, an IAM role. */
  credentials?: S3ClientConfig['credentials'];
  /** Attempts per call, the first included (the SDK's default is 3). */
  maxAttempts?: number;
  /** Uploads sending to the bucket at once in this process; later ones wait, unread (see S3_PART_SIZE). */
  uploadsInFlight?: number;
}

/**
 * The smallest part S3 accepts, and one part in flight per upload: the upload stream waits
 * (backpressure) while a part is being sent. lib-storage's chunker still holds up to about three
 * parts of one upload at a moment (the part being sent, the next one filling, their joins).
 */
export const S3_PART_SIZE = 5 * 1024 * 1024;

/**
 * Uploads that buffer parts at once: what bounds the memory of many concurrent uploads. Further
 * uploads wait with their request body unread, which the client's TCP connection absorbs.
 */
const DEFAULT_UPLOADS_IN_FLIGHT = 2;

/** A counting semaphore: acquire() resolves to the release function. */
function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return {
    async acquire(): Promise<() => void> {
      if (free > 0) free -= 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}

/** The object is not there; a bucket that is not there is the store's failure, not a missing blob. */
const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** Blobs as objects of one bucket, under the same keys as the file store's paths. */
export function createS3BlobStore(settings: S3Settings): BlobStore & { checkBucket(): Promise<void> } {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    maxAttempts: settings.maxAttempts,
    // Checksums only where S3 requires them: the newer default (aws-chunked trailers) is not
    // understood by every S3-compatible service, and each image's SHA-256 is kept anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const slots = createSlots(settings.uploadsInFlight ?? DEFAULT_UPLOADS_IN_FLIGHT);

  return {
    async put(key, source) {
      checkBlobKey(key);
      // The source's own failure (a refused upload) is the caller's to report, not the store's.
      let sourceFailure: unknown;
      source.once('error', (err) => {
        sourceFailure ??= err;
      });
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      source.on('error', (err) => counted.destroy(err));
      source.pipe(counted);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counted },
        partSize: S3_PART_SIZE,
        queueSize: 1,
        // A failed multipart upload is aborted, so no half of a file stays billable in the bucket.
        leavePartsOnError: false,
      });
      const release = await slots.acquire();
      try {
        await upload.done();
      } catch (err) {
        // Stop reading: the caller's stream must not stall on a consumer that is gone.
        source.unpipe(counted);
        counted.destroy();
        if (sourceFailure !== undefined) throw sourceFailure;
        throw new BlobStoreUnavailable('put', err);
      } finally {
        release();
      }
      return { size };
    },

    async get(key) {
      checkBlobKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (err) {
        if (isMissing(err)) throw new BlobNotFound(key);
        throw new BlobStoreUnavailable('get', err);
      }
    },

    async exists(key) {
      checkBlobKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw new BlobStoreUnavailable('exists', err);
      }
    },

    async delete(key) {
      checkBlobKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        if (isMissing(err)) return;
        throw new BlobStoreUnavailable('delete', err);
      }
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        let page;
        try {
          page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        } catch (err) {
          throw new BlobStoreUnavailable('list', err);
        }
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async replace(key, bytes) {
      checkBlobKey(key);
      let etag: string | undefined;
      try {
        etag = (await client.send(new HeadObjectCommand({ Bucket, Key: key }))).ETag;
      } catch (err) {
        if (isMissing(err)) return false;
        throw new BlobStoreUnavailable('replace', err);
      }
      try {
        // If-Match: S3 refuses the write (412, or 404) when the object was deleted or replaced
        // since the HEAD, so an image erased meanwhile is not written back.
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, IfMatch: etag }));
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (isMissing(err) || status === 412) return false;
        throw new BlobStoreUnavailable('replace', err);
      }
      return true;
    },

    /** Throws BlobStoreUnavailable, saying why, when the bucket cannot be reached with these settings. */
    async checkBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (err) {
        throw new BlobStoreUnavailable(`bucket ${Bucket}`, err);
      }
    },

    async close() {
      client.destroy();
    },
  };
}
