import { mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileBlobStore } from '../../src/blobs/store.js';

// What the store asks of the filesystem, recorded in order: a file's stream options, the
// directories it syncs, and the renames. A power loss cannot be staged in a test; the order of
// these calls is what makes a stored file survive one.
const calls: { op: 'stream' | 'rename' | 'sync'; path: string; flush?: boolean }[] = [];

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return {
    ...real,
    createWriteStream: (path: string, options: { flush?: boolean }) => {
      calls.push({ op: 'stream', path, flush: options?.flush });
      return real.createWriteStream(path, options);
    },
  };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsp>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      await real.rename(from, to);
      calls.push({ op: 'rename', path: to });
    },
    open: async (path: string, flags: string) => {
      const handle = await real.open(path, flags);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        await sync();
        calls.push({ op: 'sync', path });
      };
      return handle;
    },
  };
});

describe('file blob store: durability', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'blob-durability-'));
    calls.length = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('flushes the file before closing it, then syncs its directory and the parents of the directories it made, before put resolves', async () => {
    const store = createFileBlobStore(root);
    await store.put('verifications/v1/document', Readable.from([Buffer.from('a document')]));
    const dir = join(root, 'verifications/v1');
    expect(calls).toEqual([
      { op: 'stream', path: expect.stringMatching(/document\.[0-9a-f-]+\.partial$/), flush: true },
      { op: 'rename', path: join(dir, 'document') },
      { op: 'sync', path: dir },
      // verifications/ and verifications/v1/ were made for this file: their entries are in their parents.
      { op: 'sync', path: join(root, 'verifications') },
      { op: 'sync', path: root },
    ]);
    expect((await store.get('verifications/v1/document')).toString()).toBe('a document');

    // A second file in the same directory makes no directory: only its own directory is synced.
    calls.length = 0;
    await store.put('verifications/v1/frame-1', Readable.from([Buffer.from('a frame')]));
    expect(calls.map(({ op, path }) => [op, path])).toEqual([
      ['stream', expect.stringMatching(/frame-1\.[0-9a-f-]+\.partial$/)],
      ['rename', join(dir, 'frame-1')],
      ['sync', dir],
    ]);
  });

  it('leaves nothing behind and syncs nothing when the upload fails midway', async () => {
    const store = createFileBlobStore(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.from('part of a document'));
        this.destroy(new Error('the phone went away'));
      },
    });
    await expect(store.put('verifications/v2/document', failing)).rejects.toThrow('the phone went away');
    expect(calls.map((c) => c.op)).toEqual(['stream']);
    expect(fs.readdirSync(join(root, 'verifications/v2'))).toEqual([]);
    expect(await store.exists('verifications/v2/document')).toBe(false);
  });
});
