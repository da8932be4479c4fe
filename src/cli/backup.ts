import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as tar from 'tar';
import { acquireDataDirLock, DataDirLockedError, type DataDirLock } from '../db/data-dir-lock.js';
import { UsageError } from './cli-args.js';

/**
 * `npm run admin -- backup <file>` and `restore <file>` for the embedded database (docs/operations.md,
 * "Backup and restore"). The embedded database belongs to one process and keeps recent writes in
 * memory until it closes, so a copy taken beside a running server would be torn or stale: both
 * commands take DATA_DIR's lock and refuse while a server holds it ("stop the server first").
 * The backup is one gzipped tar: the database's own dump (PGlite dumpDataDir), the file blob
 * store (DATA_DIR/blobs, the uploaded images) and a manifest saying what is inside.
 */
const MANIFEST = 'backup.json';
const DATABASE_DUMP = 'pglite-dump.tar.gz';
const BLOBS = 'blobs';
const FORMAT = 'partner-services-embedded-backup';
/** Owner read and write only (the process's umask can only narrow it). */
const PRIVATE_FILE = 0o600;

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  database: typeof DATABASE_DUMP;
  blobs: number;
}

interface BackupSummary {
  file: string;
  dataDir: string;
  blobs: number;
  bytes: number;
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

function lockFor(dataDir: string, action: 'backup' | 'restore'): DataDirLock {
  try {
    return acquireDataDirLock(dataDir, 'cli');
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    const who = err.info.holder === 'server' ? `a running server (pid ${err.info.pid})` : `an operator CLI command (pid ${err.info.pid})`;
    throw new UsageError(
      `DATA_DIR ${dataDir} is in use by ${who}: stop it first. The embedded database belongs to one process and keeps recent writes in memory, so a ${action} beside it would not be consistent.`,
    );
  }
}

/** Only what a backup holds: the manifest, the dump and the blob store's files. */
function isBackupPath(path: string): boolean {
  return path === MANIFEST || path === DATABASE_DUMP || path === BLOBS || path === `${BLOBS}/` || path.startsWith(`${BLOBS}/`);
}

/**
 * Why an archive entry may not be restored, or undefined when it may. A backup holds plain files
 * and folders under relative paths; a link could make the server serve or overwrite any file as a
 * blob, a device or fifo could block or read hardware, and an absolute or `..` path lands outside
 * DATA_DIR.
 */
function refusal(path: string, type: tar.ReadEntry['type']): string | undefined {
  const shown = JSON.stringify(path);
  if (isAbsolute(path) || /^[a-zA-Z]:/.test(path) || path.startsWith('\\')) return `entry ${shown} is an absolute path, outside DATA_DIR`;
  if (path.split(/[/\\]/).includes('..')) return `entry ${shown} climbs out with "..", outside DATA_DIR`;
  switch (type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
    case 'Directory':
      return undefined;
    case 'SymbolicLink':
      return `entry ${shown} is a symbolic link; a backup holds only files and folders`;
    case 'Link':
      return `entry ${shown} is a hard link; a backup holds only files and folders`;
    case 'CharacterDevice':
    case 'BlockDevice':
      return `entry ${shown} is a device; a backup holds only files and folders`;
    case 'FIFO':
      return `entry ${shown} is a fifo; a backup holds only files and folders`;
    default:
      return `entry ${shown} is of type ${type}; a backup holds only files and folders`;
  }
}

/** Writes a backup of DATA_DIR (embedded database and file blobs) to `file`; the server must be stopped. */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupSummary> {
  const target = resolve(file);
  if (existsSync(target)) throw new UsageError(`${file} already exists: choose a new file name (a backup never overwrites one)`);
  if (!existsSync(join(dataDir, 'pglite'))) throw new UsageError(`DATA_DIR ${dataDir} holds no embedded database (no pglite/ in it)`);
  const lock = lockFor(dataDir, 'backup');
  const staged = [join(dataDir, MANIFEST), join(dataDir, DATABASE_DUMP)];
  try {
    const { openDatabase } = await import('../db/client.js');
    const database = await openDatabase({ dataDir });
    let dump: Blob;
    try {
      dump = await database.pglite!.dumpDataDir('gzip');
    } finally {
      await database.close();
    }
    const blobs = countFiles(join(dataDir, BLOBS));
    const manifest: Manifest = { format: FORMAT, version: 1, createdAt: new Date().toISOString(), database: DATABASE_DUMP, blobs };
    // The whole database and every uploaded image: readable by the operator who made it, no one else.
    writeFileSync(staged[1]!, Buffer.from(await dump.arrayBuffer()), { mode: PRIVATE_FILE });
    writeFileSync(staged[0]!, `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE });
    await mkdir(dirname(target), { recursive: true });
    const entries = [MANIFEST, DATABASE_DUMP, ...(existsSync(join(dataDir, BLOBS)) ? [BLOBS] : [])];
    // Written beside the target and renamed: a cut-off backup never looks like a whole one. A
    // leftover .partial is removed first, as opening it would keep its mode.
    rmSync(`${target}.partial`, { force: true });
    await tar.create({ gzip: true, cwd: dataDir, file: `${target}.partial`, portable: true, mode: PRIVATE_FILE }, entries);
    renameSync(`${target}.partial`, target);
    return { file: target, dataDir: resolve(dataDir), blobs, bytes: statSync(target).size };
  } finally {
    for (const path of staged) rmSync(path, { force: true });
    rmSync(`${target}.partial`, { force: true });
    lock.release();
  }
}

/** Restores a backup into DATA_DIR, which must hold no embedded database or blobs yet. */
export async function restoreDataDir(file: string, dataDir: string): Promise<BackupSummary> {
  const source = resolve(file);
  if (!existsSync(source)) throw new UsageError(`${file} does not exist`);
  await mkdir(dataDir, { recursive: true });
  const lock = lockFor(dataDir, 'restore');
  const staged = [join(dataDir, MANIFEST), join(dataDir, DATABASE_DUMP)];
  try {
    for (const taken of ['pglite', BLOBS]) {
      if (existsSync(join(dataDir, taken)) && readdirSync(join(dataDir, taken)).length > 0) {
        throw new UsageError(
          `DATA_DIR ${dataDir} already holds ${taken}/: restore into a new, empty DATA_DIR (a restore never overwrites data)`,
        );
      }
    }
    // The archive may come from anywhere: every entry is checked before one is written, so a
    // refused archive leaves DATA_DIR as it was; extraction checks each entry again as it writes.
    let refused: string | undefined;
    const admit = (path: string, entry: tar.ReadEntry | Stats) => {
      // Reading an archive, tar hands each entry as read; Stats only come when it packs files.
      refused ??= refusal(path, entry instanceof tar.ReadEntry ? entry.type : 'Unsupported');
      return refused === undefined && isBackupPath(path);
    };
    try {
      await tar.list({ file: source, filter: admit });
      if (refused === undefined) await tar.extract({ file: source, cwd: dataDir, strict: true, filter: admit });
    } catch (err) {
      throw new UsageError(`${file} is not a backup this command wrote: ${(err as Error).message}`);
    }
    if (refused !== undefined) throw new UsageError(`${file} is not a backup this command wrote: ${refused}`);
    let manifest: Partial<Manifest>;
    try {
      manifest = JSON.parse(readFileSync(staged[0]!, 'utf8')) as Partial<Manifest>;
    } catch {
      throw new UsageError(`${file} is not a backup this command wrote: it has no readable ${MANIFEST}`);
    }
    if (manifest.format !== FORMAT || manifest.version !== 1 || !existsSync(staged[1]!)) {
      throw new UsageError(
        `${file} is not a backup this command wrote (format ${String(manifest.format)}, version ${String(manifest.version)})`,
      );
    }
    const { openDatabase } = await import('../db/client.js');
    const dump = new Blob([readFileSync(staged[1]!)]);
    // Opening it loads the dump into DATA_DIR/pglite and checks that it starts.
    const database = await openDatabase({ dataDir, loadDataDir: dump });
    try {
      await database.ping();
    } finally {
      await database.close();
    }
    const blobs = countFiles(join(dataDir, BLOBS));
    if (blobs !== manifest.blobs)
      throw new UsageError(`${file} is incomplete: its manifest lists ${manifest.blobs} blobs, it holds ${blobs}`);
    return { file: source, dataDir: resolve(dataDir), blobs, bytes: statSync(source).size };
  } finally {
    for (const path of staged) rmSync(path, { force: true });
    lock.release();
  }
}
