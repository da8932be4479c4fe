import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE, lockedMessage } from '../../src/db/data-dir-lock.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { skippedOnPostgres } from '../helpers/once.js';

const root = join(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'lock-test-operator-token-0123';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a TypeScript entry point of this repository as its own process, as npm scripts do. */
function runTs(args: string[], env: Record<string, string>, cwd = root): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', join(root, 'node_modules/tsx/dist/esm/index.mjs'), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not exit in time: ${stderr}`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const cli = (args: string[], env: Record<string, string>, cwd?: string) => runTs([join(root, 'src/cli/cli.ts'), ...args], env, cwd);

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('DATA_DIR lock (unit)', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-unit-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('takes the lock, refuses while a live process holds it, and releases only its own', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir, 'server');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, holder: 'server' });
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    // The parent process (the test runner's) is alive: its lock stands.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, holder: 'server', since: 'x', url: 'http://localhost:3000' }));
    let refused: unknown;
    try {
      acquireDataDirLock(dir, 'cli');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    const message = lockedMessage(refused as DataDirLockedError, 'cli');
    expect(message).toContain(`pid ${process.ppid}`);
    expect(message).toContain('npm run admin -- --url http://localhost:3000');
    expect(message).not.toContain('\n');
    expect(lockedMessage(refused as DataDirLockedError, 'server')).toMatch(/stop it first, or start this one with another DATA_DIR/);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.ppid);
  });

  it('takes over a lock whose process is gone, and an unreadable one', async () => {
    const dir = freshDir();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('exit', r));
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead.pid, holder: 'server', since: 'x' }));
    acquireDataDirLock(dir, 'cli').release();
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    const lock = acquireDataDirLock(dir, 'cli');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });
});

describe.skipIf(skippedOnPostgres())('one process per embedded DATA_DIR (real processes)', () => {
  let dataDir: string;
  let server: ServerProcess;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lock-proc-'));
    server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN }, { listenTimeoutMs: 200_000 });
    await waitFor(() => readFileSync(join(dataDir, LOCK_FILE), 'utf8').includes('"url"'), 'the server to record its URL');
  }, 240_000);
  afterAll(async () => {
    server?.cleanup();
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records the running server in DATA_DIR/process.lock', () => {
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: server.child.pid,
      holder: 'server',
      url: `http://127.0.0.1:${server.port}`,
    });
  });

  it('refuses a second server on the same DATA_DIR: exit 2 and one line saying what to do', async () => {
    const second = await runTs(['src/server.ts'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_TOKEN });
    expect(second.code).toBe(2);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(
      `DATA_DIR ${dataDir} is in use by a running server (pid ${server.child.pid}, http://127.0.0.1:${server.port})`,
    );
    expect(second.stderr).toMatch(/stop it first, or start this one with another DATA_DIR/);
    expect(second.stdout).toBe('');
  }, 120_000);

  it('refuses the CLI without --url and points at --url', async () => {
    const run = await cli(['create-profile', '--name', 'Lost', '--plan', 'FREE'], { DATA_DIR: dataDir, ADMIN_TOKEN });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`npm run admin -- --url http://127.0.0.1:${server.port} <command>`);
    expect(run.stdout).toBe('');
  }, 120_000);

  it('runs operations over HTTP with --url: what it creates, the running server serves', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const created = await cli(['--url', base, 'create-profile', '--name', 'Over HTTP', '--plan', 'ENTERPRISE'], { ADMIN_TOKEN });
    expect(created.code, created.stderr).toBe(0);
    const profile = JSON.parse(created.stdout).data;
    expect(profile).toMatchObject({ name: 'Over HTTP', plan: 'ENTERPRISE' });
    const served = await fetch(`${base}/admin/v1/profiles/${profile.id}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(served.status).toBe(200);

    // A list flag as a,b; the key works against the same server at once.
    const key = await cli(
      [`--url=${base}/`, 'create-api-key', '--service', 'ticketing', '--profileId', profile.id, '--scopes', 'events:read,orders:read'],
      { ADMIN_TOKEN },
    );
    expect(key.code, key.stderr).toBe(0);
    const issued = JSON.parse(key.stdout).data;
    expect(issued.scopes).toEqual(['events:read', 'orders:read']);
    expect((await fetch(`${base}/api/v1/events`, { headers: { authorization: `Bearer ${issued.key}` } })).status).toBe(200);

    // An error answer is printed and exits 1; a wrong token is an error answer too.
    const missing = await cli(['--url', base, 'get-profile', '--id', '00000000-0000-4000-8000-000000000000'], { ADMIN_TOKEN });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('NOT_FOUND');
    const wrongToken = await cli(['--url', base, 'get-profile', '--id', profile.id], { ADMIN_TOKEN: 'not-the-operator-token' });
    expect(wrongToken.code).toBe(1);
    expect(JSON.parse(wrongToken.stdout).error.code).toBe('UNAUTHORIZED');
  }, 120_000);

  it('refuses --url without ADMIN_TOKEN, and an unreachable server, with exit 2', async () => {
    const noToken = await cli(['--url', `http://127.0.0.1:${server.port}`, 'get-profile', '--id', 'x'], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/^--url needs ADMIN_TOKEN/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const unreachable = await cli(['--url', `http://127.0.0.1:${port}`, 'get-profile', '--id', 'x'], { ADMIN_TOKEN });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toBe(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`);
  }, 120_000);

  it('releases the lock on shutdown, and a stale lock (its process killed) is taken over', async () => {
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);

    // A server killed with SIGKILL leaves its lock behind: the next one takes it over.
    const killed = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN }, { listenTimeoutMs: 200_000 });
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(killed.child.pid);
    server = await startServerProcess({ DATA_DIR: dataDir, ADMIN_TOKEN }, { listenTimeoutMs: 200_000 });
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(server.child.pid);
    // The profile created over HTTP earlier survived the restarts.
    const listed = await fetch(`http://127.0.0.1:${server.port}/admin/v1/api-keys`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(((await listed.json()) as { data: { items: unknown[] } }).data.items).toHaveLength(1);
  }, 600_000);
});

describe('operator CLI help', () => {
  it('prints --help and <command> --help without opening a database or creating ./data', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cli-help-'));
    // Were a database opened, this one would refuse the connection and the run would fail.
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    try {
      const baseline = await runTs(['-e', ''], env, cwd);
      const help = await cli(['--help'], env, cwd);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain('--url http://host:port');
      for (const line of help.stdout.split('\n').filter((l) => /^ {2}[a-z-]+ /.test(l)))
        expect(line.trim().split(/\s{2,}/)).toHaveLength(2);
      expect(help.stdout).toMatch(/^ {2}create-profile +Create a profile/m);
      const command = await cli(['create-api-key', '--help'], env, cwd);
      expect(command.code, command.stderr).toBe(0);
      expect(command.stdout).toContain('POST /admin/v1/api-keys');
      expect(command.stdout).toMatch(/--scopes a,b,… +optional/);
      expect(command.stdout).toMatch(/--profileId +required/);
      expect(readdirSync(cwd)).toEqual([]);
      // No app is loaded: help costs little more than starting the TypeScript loader.
      expect(help.ms).toBeLessThan(baseline.ms + 5_000);
      const none = await cli([], env, cwd);
      expect(none.code).toBe(2);
      expect(none.stdout).toContain('commands:');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});
