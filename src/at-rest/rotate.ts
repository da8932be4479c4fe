import { join } from 'node:path';
import { createS3BlobStore } from '../blobs/s3.js';
import { createFileBlobStore, type BlobStore } from '../blobs/store.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { dataKeysOf } from './data-keys.js';
import { DataKeyError, keyFileOf, readMasterKeys } from './master-key.js';
import { rewrapBlobs } from './sealed-blobs.js';
import { rewrapCells } from './settle.js';

export interface RotationSummary {
  /** The id of the master key everything is wrapped under now. */
  masterKey: string;
  rows: { rewrapped: number; sealed: number };
  blobs: { rewrapped: number; sealed: number };
}

/** The blob store of the configuration, without the app's logging (the CLI reports its own failures). */
export function blobStoreOf(config: Config): BlobStore {
  if (config.BLOB_STORE === 'file') return createFileBlobStore(join(config.DATA_DIR, 'blobs'));
  return createS3BlobStore({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION!,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

/**
 * `rotate-data-key` (docs/operations.md, "Encryption at rest"): every data key wrapped under another master
 * key than DATA_KEY (the new one) is unwrapped with DATA_KEY_PREVIOUS and wrapped again under
 * DATA_KEY, in the database and in the blob store. Only the wraps change (a header per file, a
 * few bytes per row), never the sealed data; the running servers hold both keys meanwhile, so
 * they read every record whichever key it is wrapped under at that moment.
 */
export async function rotateDataKey(config: Config, db: DbOrTx, blobs: BlobStore): Promise<RotationSummary> {
  const given = readMasterKeys(config);
  if (!given.current) {
    throw new DataKeyError(`rotate-data-key takes the new key from DATA_KEY or DATA_KEY_FILE; ${keyFileOf(config)} does not exist`);
  }
  const keys = dataKeysOf(given.current, given.previous);
  const rows = await rewrapCells(db, keys);
  const rewrapped = await rewrapBlobs(blobs, keys);
  return { masterKey: keys.current.id, rows, blobs: rewrapped };
}
