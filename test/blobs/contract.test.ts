import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataKeysOf } from '../../src/at-rest/data-keys.js';
import { masterKeyOf } from '../../src/at-rest/envelope.js';
import { sealedBlobStore } from '../../src/at-rest/sealed-blobs.js';
import { S3_PART_SIZE } from '../../src/blobs/s3.js';
import { BlobNotFound, createFileBlobStore, type BlobStore } from '../../src/blobs/store.js';
import { s3StoreOn, startS3rver, type LocalS3 } from './s3rver.js';

interface Subject {
  store: BlobStore;
  /** What the store holds beyond its blobs (partial files, unfinished objects): nothing, between operations. */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

/** The two stores the server can run on; the same contract below holds for each. */
const stores: [name: string, open: () => Promise<Subject>][] = [
  [
    'the file store',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'blobs-'));
      return {
        store: createFileBlobStore(root),
        leftovers: async () => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.partial')),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    // What the services are given (src/app.ts): the same contract holds over the envelopes.
    'the file store, sealed at rest',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'blobs-'));
      return {
        store: sealedBlobStore(createFileBlobStore(root), dataKeysOf(masterKeyOf(randomBytes(32)))),
        leftovers: async () => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.partial')),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    'the S3 store (s3rver)',
    async () => {
      const s3: LocalS3 = await startS3rver();
      const store = s3StoreOn(s3);
      return {
        store,
        leftovers: async () => [],
        close: async () => {
          await store.close?.();
          await s3.close();
        },
      };
    },
  ],
];

/** A stream of `total` bytes in chunks, never all in memory at once. */
function streamOf(total: number, chunk = 256 * 1024): { stream: Readable; bytes: () => Buffer } {
  const parts: Buffer[] = [];
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const part = randomBytes(Math.min(chunk, total - sent));
      parts.push(part);
      sent += part.length;
      this.push(part);
    },
  });
  return { stream, bytes: () => Buffer.concat(parts) };
}

describe.each(stores)('blob store contract: %s', (_name, open) => {
  let subject: Subject;
  let store: BlobStore;
  beforeAll(async () => {
    subject = await open();
    store = subject.store;
  });
  afterAll(() => subject?.close());

  it('stores a stream under a key and gives the same bytes back, with its size', async () => {
    const data = randomBytes(70_000);
    expect(await store.put('identity/a/document', Readable.from([data.subarray(0, 1000), data.subarray(1000)]))).toEqual({ size: 70_000 });
    expect((await store.get('identity/a/document')).equals(data)).toBe(true);
    expect(await store.exists('identity/a/document')).toBe(true);
  });

  it('stores a file larger than one upload part whole (15 MB, streamed)', async () => {
    const total = 3 * S3_PART_SIZE;
    const { stream, bytes } = streamOf(total);
    expect(await store.put('identity/big/document', stream)).toEqual({ size: total });
    expect((await store.get('identity/big/document')).equals(bytes())).toBe(true);
  });

  it('stores an empty stream as an empty blob', async () => {
    expect(await store.put('identity/empty/frame', Readable.from([]))).toEqual({ size: 0 });
    expect((await store.get('identity/empty/frame')).length).toBe(0);
  });

  it('replaces the blob of a key put again', async () => {
    await store.put('identity/twice/frame', Readable.from([Buffer.from('first')]));
    await store.put('identity/twice/frame', Readable.from([Buffer.from('second')]));
    expect((await store.get('identity/twice/frame')).toString()).toBe('second');
  });

  it('answers BlobNotFound for a key with no blob, and exists false', async () => {
    await expect(store.get('identity/none/document')).rejects.toBeInstanceOf(BlobNotFound);
    expect(await store.exists('identity/none/document')).toBe(false);
  });

  it('deletes a blob, and deleting again (or what never was) is fine', async () => {
    await store.put('identity/gone/document', Readable.from([Buffer.from('bytes')]));
    await store.delete('identity/gone/document');
    expect(await store.exists('identity/gone/document')).toBe(false);
    await expect(store.get('identity/gone/document')).rejects.toBeInstanceOf(BlobNotFound);
    await store.delete('identity/gone/document');
    await store.delete('identity/never/document');
  });

  it('shows a blob only once its stream has ended', async () => {
    const source = new PassThrough();
    const writing = store.put('identity/slow/frame', source);
    source.write(randomBytes(10_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await store.exists('identity/slow/frame')).toBe(false);
    source.end(randomBytes(10_000));
    expect(await writing).toEqual({ size: 20_000 });
    expect(await store.exists('identity/slow/frame')).toBe(true);
  });

  it('keeps nothing of a stream that fails midway, and rejects with the stream’s own error', async () => {
    const refused = new Error('the upload is not an image');
    const source = new Readable({ read() {} });
    const writing = store.put('identity/broken/document', source);
    source.push(randomBytes(100_000));
    setTimeout(() => source.destroy(refused), 20);
    await expect(writing).rejects.toBe(refused);
    expect(await store.exists('identity/broken/document')).toBe(false);
    expect(await subject.leftovers()).toEqual([]);
  });

  it('lists the key of every stored blob, and none of an upload in progress', async () => {
    await store.put('identity/listed/document', Readable.from([Buffer.from('one')]));
    await store.put('identity/listed/frames/0', Readable.from([Buffer.from('two')]));
    const source = new PassThrough();
    const writing = store.put('identity/listed/unfinished', source);
    source.write(randomBytes(1000));
    const keys: string[] = [];
    for await (const key of store.list()) keys.push(key);
    expect(keys).toEqual(expect.arrayContaining(['identity/listed/document', 'identity/listed/frames/0']));
    expect(keys.filter((k) => k.startsWith('identity/listed/unfinished'))).toEqual([]);
    source.end();
    await writing;
  });

  it('replaces a blob that exists, at the same length or another, and never writes back one deleted', async () => {
    await store.put('identity/replaced/document', Readable.from([Buffer.from('abcdef')]));
    expect(await store.replace('identity/replaced/document', Buffer.from('ABCDEF'))).toBe(true);
    expect((await store.get('identity/replaced/document')).toString()).toBe('ABCDEF');
    expect(await store.replace('identity/replaced/document', Buffer.from('longer than before'))).toBe(true);
    expect((await store.get('identity/replaced/document')).toString()).toBe('longer than before');
    await store.delete('identity/replaced/document');
    expect(await store.replace('identity/replaced/document', Buffer.from('back again'))).toBe(false);
    expect(await store.exists('identity/replaced/document')).toBe(false);
    expect(await subject.leftovers()).toEqual([]);
  });

  it('refuses keys that are not plain relative paths before touching anything', async () => {
    for (const key of ['../escape', 'identity/../../etc/passwd', '/absolute', 'with space', 'identity/a?b', '']) {
      await expect(store.put(key, Readable.from([Buffer.from('x')])), key).rejects.toThrow(/bad blob key/);
      await expect(store.get(key), key).rejects.toThrow(/bad blob key/);
    }
  });
});
