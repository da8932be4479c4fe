import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where uploaded files live. The filesystem store is the default; object storage can implement this later. */
export interface BlobStore {
  /** Streams `source` into the store under `key`; the blob becomes visible only when complete. */
  put(key: string, source: Readable): Promise<{ size: number }>;
  get(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

export function createFileBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    if (!/^[A-Za-z0-9/_.-]+$/.test(key) || key.includes('..')) throw new Error(`bad blob key ${key}`);
    return join(root, key);
  };
  return {
    async put(key, source) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      try {
        await pipeline(source, createWriteStream(partial));
        await rename(partial, target);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
      return { size: (await stat(target)).size };
    },
    get: (key) => readFile(pathOf(key)),
    async exists(key) {
      return stat(pathOf(key)).then(
        () => true,
        () => false,
      );
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
