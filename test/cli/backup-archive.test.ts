import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir, restoreDataDir } from '../../src/cli/backup.js';
import { UsageError } from '../../src/cli/cli-args.js';
import { openDatabase } from '../../src/db/client.js';

/**
 * The embedded store's backup file, in-process: who may read it, and what a restore accepts from
 * an archive that someone else crafted (backup-embedded.test.ts runs the whole cycle with a server).
 */
const scratch = mkdtempSync(join(tmpdir(), 'backup-archive-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MANIFEST = JSON.stringify({
  format: 'partner-services-embedded-backup',
  version: 1,
  createdAt: '2026-11-27T00:00:00.000Z',
  database: 'pglite-dump.tar.gz',
  blobs: 0,
});

type EntryType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'char' | 'block' | 'fifo';
const TYPE_FLAG: Record<EntryType, string> = { file: '0', hardlink: '1', symlink: '2', char: '3', block: '4', dir: '5', fifo: '6' };

/** One ustar header and its body, written by hand so that any name and type can be put in. */
function entry(name: string, type: EntryType, opts: { body?: string; link?: string } = {}): Buffer {
  const body = Buffer.from(opts.body ?? '');
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number) => header.write(text, offset, length, 'utf8');
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(type === 'dir' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(type === 'file' ? body.length : 0, 12), 124, 12);
  put(octal(1_700_000_000, 12), 136, 12);
  put('        ', 148, 8);
  put(TYPE_FLAG[type], 156, 1);
  put(opts.link ?? '', 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  const padded = type === 'file' ? Buffer.concat([body, Buffer.alloc((512 - (body.length % 512)) % 512)]) : Buffer.alloc(0);
  return Buffer.concat([header, padded]);
}

let archives = 0;
/** A gzipped tar of the given entries after a genuine manifest and dump name, so only the planted entry is wrong. */
function craft(...planted: Buffer[]): string {
  const file = join(scratch, `crafted-${++archives}.tar.gz`);
  const tar = Buffer.concat([
    entry('backup.json', 'file', { body: MANIFEST }),
    entry('pglite-dump.tar.gz', 'file', { body: 'not read: the archive is refused first' }),
    entry('blobs/', 'dir'),
    ...planted,
    Buffer.alloc(1024),
  ]);
  writeFileSync(file, gzipSync(tar));
  return file;
}

/** Everything under `dir`, as relative paths (symlinks not followed). */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('restore refuses an archive that reaches outside DATA_DIR or holds anything but files and folders', () => {
  const outside = join(scratch, 'outside');
  mkdirSync(outside, { recursive: true });

  it.each([
    ['a symlink', () => entry('blobs/ab/leak', 'symlink', { link: '/etc/passwd' }), /blobs\/ab\/leak.*symbolic link/],
    [
      'a symlink to a folder, then a file through it',
      () => Buffer.concat([entry('blobs/out', 'symlink', { link: outside }), entry('blobs/out/planted', 'file', { body: 'x' })]),
      /blobs\/out.*symbolic link/,
    ],
    ['a hard link', () => entry('blobs/hard', 'hardlink', { link: 'backup.json' }), /blobs\/hard.*hard link/],
    [
      'a ../ path',
      () => entry('blobs/../../outside/planted', 'file', { body: 'x' }),
      /blobs\/\.\.\/\.\.\/outside\/planted.*outside DATA_DIR/,
    ],
    ['an absolute path', () => entry(`${outside}/planted`, 'file', { body: 'x' }), /outside\/planted.*outside DATA_DIR/],
    ['a character device', () => entry('blobs/tty', 'char'), /blobs\/tty.*device/],
    ['a block device', () => entry('blobs/disk', 'block'), /blobs\/disk.*device/],
    ['a fifo', () => entry('blobs/pipe', 'fifo'), /blobs\/pipe.*fifo/],
  ])('%s: a clear error naming the entry, and nothing written', async (_, planted, message) => {
    const dataDir = join(scratch, `restore-${archives + 1}`);
    const file = craft(planted());
    const failure = await restoreDataDir(file, dataDir).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as Error).message).toMatch(/is not a backup this command wrote: /);
    expect((failure as Error).message).toMatch(message);
    // Not even the genuine entries before the planted one are left in DATA_DIR.
    expect(tree(dataDir)).toEqual([]);
    expect(tree(outside)).toEqual([]);
  });
});

describe('a backup of the embedded store', () => {
  it('is readable by its owner only, the staged dump too, and restores', { timeout: 180_000 }, async () => {
    const dataDir = join(scratch, 'store');
    const database = await openDatabase({ dataDir });
    await database.close();
    mkdirSync(join(dataDir, 'blobs', 'ab'), { recursive: true });
    writeFileSync(join(dataDir, 'blobs', 'ab', 'image'), 'bytes of an uploaded image');

    // The dump and manifest live in DATA_DIR only while the archive is written: look at them then.
    const staged = new Map<string, number>();
    const watcher = watch(dataDir, (_, name) => {
      if (name !== 'pglite-dump.tar.gz' && name !== 'backup.json') return;
      try {
        staged.set(name, lstatSync(join(dataDir, name)).mode & 0o777);
      } catch {
        // Removed again already; an earlier event saw it.
      }
    });
    const file = join(scratch, 'backups', 'store.tar.gz');
    const previous = process.umask(0); // a permissive umask must not open the file up
    try {
      await backupDataDir(dataDir, file);
    } finally {
      process.umask(previous);
      watcher.close();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(staged.get('pglite-dump.tar.gz')).toBe(0o600);
    expect(staged.get('backup.json')).toBe(0o600);
    expect(readdirSync(dataDir).sort()).toEqual(['blobs', 'pglite']);

    const restored = join(scratch, 'restored');
    const summary = await restoreDataDir(file, restored);
    expect(summary.blobs).toBe(1);
    expect(tree(join(restored, 'blobs'))).toEqual(['ab', 'ab/image']);
  });
});
