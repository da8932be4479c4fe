import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobStoreUnavailable, type BlobStore } from '../../src/blobs/store.js';
import { createS3BlobStore } from '../../src/blobs/s3.js';
import { s3StoreOn, startS3rver, type LocalS3 } from './s3rver.js';

describe('the S3 store', () => {
  let s3: LocalS3;
  let store: BlobStore & { checkBucket(): Promise<void> };
  beforeAll(async () => {
    s3 = await startS3rver();
    store = s3StoreOn(s3);
  });
  afterAll(async () => {
    await store?.close?.();
    await s3?.close();
  });

  it('fails every operation as unavailable (503), stores nothing, and works again once the bucket is back', async () => {
    await store.put('identity/kept/document', Readable.from([Buffer.from('kept')]));
    await s3.stop();
    try {
      const attempts = [
        store.put('identity/new/document', Readable.from([randomBytes(50_000)])),
        store.put('identity/large/document', Readable.from(Array.from({ length: 24 }, () => randomBytes(512 * 1024)))),
        store.get('identity/kept/document'),
        store.exists('identity/kept/document'),
        store.delete('identity/kept/document'),
        store.checkBucket(),
      ];
      for (const attempt of await Promise.allSettled(attempts)) {
        expect(attempt.status).toBe('rejected');
        const reason = (attempt as PromiseRejectedResult).reason;
        expect(reason).toBeInstanceOf(BlobStoreUnavailable);
        expect(reason.statusCode).toBe(503);
      }
    } finally {
      await s3.start();
    }
    expect(await s3.keys('identity/')).toEqual(['identity/kept/document']);
    expect((await store.get('identity/kept/document')).toString()).toBe('kept');
    await store.checkBucket();
  });

  it('says which bucket cannot be reached with the settings given', async () => {
    const elsewhere = s3StoreOn({ ...s3, settings: { ...s3.settings, bucket: 'no-such-bucket' } });
    try {
      await expect(elsewhere.checkBucket()).rejects.toThrow(/blob store unavailable \(bucket no-such-bucket\)/);
      await expect(elsewhere.get('identity/any/document')).rejects.toBeInstanceOf(BlobStoreUnavailable);
    } finally {
      await elsewhere.close?.();
    }
  });

  it('sends S3_UPLOADS_IN_FLIGHT uploads at once; the next one waits for a free slot', async () => {
    const one = createS3BlobStore({ ...s3.settings, uploadsInFlight: 1 });
    try {
      const slow = new PassThrough();
      const first = one.put('identity/first/document', slow);
      slow.write(randomBytes(1000));
      const waiting = new PassThrough();
      const second = one.put('identity/second/document', waiting);
      waiting.end(randomBytes(1000));
      let secondDone = false;
      void second.then(() => (secondDone = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(secondDone).toBe(false);
      expect(await s3.keys('identity/second/')).toEqual([]);
      slow.end();
      expect(await first).toEqual({ size: 1000 });
      expect(await second).toEqual({ size: 1000 });
    } finally {
      await one.close?.();
    }
  });
});
