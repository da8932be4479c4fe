import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One process per embedded data directory. PGlite is single-process: a second process opening
 * the same DATA_DIR works on its own copy in memory and what it writes is lost (docs/operations.md,
 * "Operator CLI"). The holder writes its PID into DATA_DIR/process.lock; a lock whose PID is
 * no longer running is stale and taken over, so a crash or `kill -9` never blocks a restart.
 * Kept free of heavy imports: the CLI checks it before loading the app.
 */
export const LOCK_FILE = 'process.lock';

type LockHolder = 'server' | 'cli';

interface LockInfo {
  pid: number;
  holder: LockHolder;
  since: string;
  /** Where the holding server listens, once it does (the CLI's hint for --url). */
  url?: string;
}

export interface DataDirLock {
  path: string;
  /** Records where the server listens, for the message another process prints. */
  setUrl(url: string): void;
  /** Removes the lock file if it is still ours; safe to call more than once, also from an exit handler. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly info: LockInfo,
  ) {
    super(`DATA_DIR ${dataDir} is in use by a running ${info.holder} (pid ${info.pid})`);
  }
}

function readLock(path: string): LockInfo | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return undefined;
    return {
      pid: parsed.pid!,
      holder: parsed.holder === 'cli' ? 'cli' : 'server',
      since: String(parsed.since ?? ''),
      ...(parsed.url ? { url: String(parsed.url) } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Whether a process with this PID exists (EPERM: it exists but belongs to another user). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false; // a lock left by an earlier process that had our PID (containers reuse PID 1)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes DATA_DIR's lock for this process, or throws DataDirLockedError naming the live holder. */
export function acquireDataDirLock(dataDir: string, holder: LockHolder): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const info: LockInfo = { pid: process.pid, holder, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      // 'wx' creates the file or fails: of two processes starting at once, exactly one wins.
      fd = openSync(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const current = readLock(path);
      if (current && isRunning(current.pid)) throw new DataDirLockedError(dataDir, current);
      // Stale (its process is gone) or unreadable: remove it and race for a fresh one.
      try {
        unlinkSync(path);
      } catch (unlinkErr) {
        if ((unlinkErr as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkErr;
      }
      continue;
    }
    writeSync(fd, JSON.stringify(info));
    closeSync(fd);
    let released = false;
    const ours = () => readLock(path)?.pid === process.pid;
    return {
      path,
      setUrl(url) {
        if (released || !ours()) return;
        info.url = url;
        // Written beside it and renamed over it: a reader never sees the file half written
        // (writeFileSync truncates first, and a reader in between read an empty lock).
        const next = `${path}.${process.pid}.tmp`;
        writeFileSync(next, JSON.stringify(info));
        renameSync(next, path);
      },
      release() {
        if (released) return;
        released = true;
        try {
          if (ours()) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      },
    };
  }
  throw new Error(`could not take the lock ${path}: another process keeps recreating it`);
}

/** The URL to suggest for `--url`: a wildcard listen address is reached through localhost. */
export function reachableUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** The one line a refused process prints: who holds DATA_DIR and what to do instead. */
export function lockedMessage(err: DataDirLockedError, refused: LockHolder): string {
  const { dataDir, info } = err;
  if (info.holder === 'cli') {
    return `DATA_DIR ${dataDir} is in use by an operator CLI command (pid ${info.pid}): wait for it to finish, then try again`;
  }
  const where = info.url ?? 'http://<host>:<port>';
  if (refused === 'cli') {
    return `DATA_DIR ${dataDir} is in use by a running server (pid ${info.pid}): run the command against it with \`npm run admin -- --url ${where} <command>\` and ADMIN_TOKEN set, or stop the server first`;
  }
  return `DATA_DIR ${dataDir} is in use by a running server (pid ${info.pid}${info.url ? `, ${info.url}` : ''}): stop it first, or start this one with another DATA_DIR (or DATABASE_URL=postgres://…)`;
}
