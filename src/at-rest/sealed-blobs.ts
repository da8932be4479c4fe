import { Readable } from 'node:stream';
import { BlobNotFound, type BlobStore } from '../blobs/store.js';
import { blobContext, type DataKeys } from './data-keys.js';
import { hasHeader, HEADER_BYTES, isSealed, masterKeyIdOf, open, rewrapHeader, seal, sealingStream } from './envelope.js';

/**
 * The blob store as the services use it: every image is sealed as it streams in (a fresh data
 * key per file, bound to its blob key) and opened when read, in the file store and in S3 alike.
 * Hashes, sizes and image checks are taken by the upload inspector on the plain bytes before
 * they reach this store (src/identity/uploads/inspect.ts), so they are what they were.
 */
export function sealedBlobStore(inner: BlobStore, keys: DataKeys): BlobStore {
  return {
    async put(key, source: Readable) {
      let size = 0;
      const sealing = sealingStream(keys.current, blobContext(key));
      // The plain size, as the store answered before: what the caller streamed.
      source.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      // The source's failure reaches the inner store as the stream's own, which it reports as the caller's.
      source.once('error', (err) => sealing.destroy(err));
      // The source may fail (a refused upload: 415, 413) before the inner store has attached its own
      // listeners (it awaits its directory first): an 'error' with no listener would end the process.
      // The inner store still learns of it, from the stream's errored state when it pipes it.
      sealing.on('error', () => undefined);
      source.pipe(sealing);
      try {
        await inner.put(key, sealing);
      } catch (err) {
        source.unpipe(sealing);
        throw err;
      }
      return { size };
    },
    async get(key) {
      const bytes = await inner.get(key);
      // A file from before encryption at rest, not yet sealed by the start-up pass (sealExistingBlobs).
      if (!isSealed(bytes)) return bytes;
      return open(keys.all, blobContext(key), bytes);
    },
    exists: (key) => inner.exists(key),
    delete: (key) => inner.delete(key),
    async *list() {
      for await (const key of inner.list()) if (key !== SEALED_MARKER) yield key;
    },
    replace: (key, bytes) => inner.replace(key, seal(keys.current, blobContext(key), bytes)),
    close: inner.close ? () => inner.close!() : undefined,
  };
}

/**
 * Where a store notes that every blob in it is sealed: the pass below runs again only for a
 * store without it (one restored from a backup of before, or whose pass was interrupted). A
 * blob of its own, so it travels with the files it speaks for.
 */
export const SEALED_MARKER = 'at-rest/sealed-v1';

/**
 * Seals, in place, every blob stored in plain before encryption at rest, once per store (the
 * marker). Idempotent and safe to interrupt: each file is told sealed or plain by its header and
 * replaced whole (a file renamed over, an object put), so a file is either plain or sealed, and
 * the next start carries on. A blob deleted meanwhile stays deleted (BlobStore.replace).
 */
export async function sealExistingBlobs(inner: BlobStore, keys: DataKeys): Promise<{ sealed: number; skipped: boolean }> {
  if (await inner.exists(SEALED_MARKER)) return { sealed: 0, skipped: true };
  let sealed = 0;
  for await (const key of inner.list()) {
    if (key === SEALED_MARKER) continue;
    let bytes: Buffer;
    try {
      bytes = await inner.get(key);
    } catch (err) {
      if (err instanceof BlobNotFound) continue;
      throw err;
    }
    if (isSealed(bytes)) continue;
    if (await inner.replace(key, seal(keys.current, blobContext(key), bytes))) sealed += 1;
  }
  await inner.put(SEALED_MARKER, Readable.from([Buffer.from(`${JSON.stringify({ sealedAt: new Date().toISOString() })}\n`)]));
  return { sealed, skipped: false };
}

/**
 * Rewraps every blob sealed under another master key than `keys.current` (rotation): only the
 * header changes, written over the file in place. Plain blobs met on the way are sealed.
 */
export async function rewrapBlobs(inner: BlobStore, keys: DataKeys): Promise<{ rewrapped: number; sealed: number }> {
  let rewrapped = 0;
  let sealed = 0;
  for await (const key of inner.list()) {
    if (key === SEALED_MARKER) continue;
    let bytes: Buffer;
    try {
      bytes = await inner.get(key);
    } catch (err) {
      if (err instanceof BlobNotFound) continue;
      throw err;
    }
    if (!isSealed(bytes)) {
      if (await inner.replace(key, seal(keys.current, blobContext(key), bytes))) sealed += 1;
      continue;
    }
    if (masterKeyIdOf(bytes) === keys.current.id) continue;
    const header = rewrapHeader(keys.all, keys.current, bytes.subarray(0, HEADER_BYTES));
    if (await inner.replace(key, Buffer.concat([header, bytes.subarray(HEADER_BYTES)]))) rewrapped += 1;
  }
  return { rewrapped, sealed };
}

/** The master key ids the store's sealed blobs name (tests, and the check after a rotation). */
export async function blobMasterKeyIds(inner: BlobStore): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for await (const key of inner.list()) {
    if (key === SEALED_MARKER) continue;
    const bytes = await inner.get(key);
    const id = hasHeader(bytes) ? masterKeyIdOf(bytes) : 'plain';
    ids.set(id, (ids.get(id) ?? 0) + 1);
  }
  return ids;
}
