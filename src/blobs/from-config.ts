import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { createS3BlobStore } from './s3.js';
import { createFileBlobStore, type BlobStore } from './store.js';

/**
 * The blob store BLOB_STORE names. An S3 bucket is checked once in the background: a bucket that
 * cannot be reached is logged, saying why, but does not stop the server (uploads answer 503 until
 * it can be reached; the pipeline waits for it).
 */
export function openBlobStore(config: Config, log: FastifyBaseLogger): BlobStore {
  if (config.BLOB_STORE === 'file') return createFileBlobStore(join(config.DATA_DIR, 'blobs'));
  // The config schema requires both with BLOB_STORE=s3.
  const bucket = config.S3_BUCKET!;
  const store = createS3BlobStore({
    bucket,
    region: config.S3_REGION!,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    uploadsInFlight: config.S3_UPLOADS_IN_FLIGHT,
  });
  store.checkBucket().then(
    () => log.info({ bucket, endpoint: config.S3_ENDPOINT ?? 'AWS' }, 'blob store: S3 bucket reachable'),
    (err: Error) => log.warn({ bucket, endpoint: config.S3_ENDPOINT ?? 'AWS', reason: err.message }, 'blob store: S3 bucket not reachable'),
  );
  return store;
}
