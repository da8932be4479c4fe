import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { expectRestored, populate, type Populated } from './backup-scenario.js';

const root = join(import.meta.dirname, '../..');

/** `npm run admin -- <args>` with DATA_DIR, as an operator runs it. */
function admin(args: string[], dataDir: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/cli.ts', ...args],
      { cwd: root, timeout: 60_000, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

/**
 * A backup of a populated embedded store (DATA_DIR: the database and the uploaded images)
 * restores into a fresh DATA_DIR that a server then serves with everything in it. The
 * embedded database only: on PostgreSQL the suite runs the pg_dump procedure of docs/operations.md instead
 * (backup-postgres.test.ts).
 */
describe.runIf(!process.env.DATABASE_URL)('backup and restore of the embedded store', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'backup-embedded-'));
  const original = join(scratch, 'original');
  const restored = join(scratch, 'restored');
  const backup = join(scratch, 'backups', 'store.tar.gz');
  let server: ServerProcess | undefined;
  let populated: Populated;
  const start = (dataDir: string) =>
    startServerProcess({
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      JOBS_POLL_INTERVAL_MS: '100',
      CAPTURE_RATE_LIMIT_PER_MINUTE: '100000',
    });

  beforeAll(async () => {
    server = await start(original);
    populated = await populate(`http://127.0.0.1:${server.port}`);
  }, 120_000);
  afterAll(() => {
    server?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses to back up beside the running server, saying to stop it', async () => {
    const res = await admin(['backup', backup], original);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/in use by a running server \(pid \d+\): stop it first/);
    expect(existsSync(backup)).toBe(false);
  }, 60_000);

  it('backs up the stopped store and restores it into a fresh DATA_DIR that a server serves whole', async () => {
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toEqual({ code: 0, signal: null });
    const made = await admin(['backup', backup], original);
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.out).backedUp).toMatchObject({ blobs: expect.any(Number), bytes: expect.any(Number) });
    expect(JSON.parse(made.out).backedUp.blobs).toBeGreaterThanOrEqual(populated.images.size);
    // Nothing staged is left behind in the store (data.key: the master key of encryption at rest).
    expect(readdirSync(original).sort()).toEqual(['blobs', 'data.key', 'pglite']);

    const back = await admin(['restore', backup], restored);
    expect(back.err).toBe('');
    expect(back.code).toBe(0);
    expect(JSON.parse(back.out).restored.blobs).toBe(JSON.parse(made.out).backedUp.blobs);
    // The backup does not hold the data key (docs/operations.md, "Backup and restore"): the operator puts it back.
    expect(existsSync(join(restored, 'data.key'))).toBe(false);
    copyFileSync(join(original, 'data.key'), join(restored, 'data.key'));

    server = await start(restored);
    await expectRestored(`http://127.0.0.1:${server.port}`, populated, scratch);
  }, 120_000);

  it('never overwrites: not an existing backup file, not a DATA_DIR that holds data', async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    const again = await admin(['backup', backup], original);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already exists/);
    const over = await admin(['restore', backup], original);
    expect(over.code).toBe(2);
    expect(over.err).toMatch(/already holds pglite\/: restore into a new, empty DATA_DIR/);
  }, 60_000);

  it('refuses a file that is not a backup, and a missing one, with exit 2', async () => {
    const notBackup = join(scratch, 'not-a-backup');
    expect((await admin(['restore', join(scratch, 'missing.tar.gz')], notBackup)).err).toMatch(/does not exist/);
    const res = await admin(['restore', join(root, 'package.json')], notBackup);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/is not a backup this command wrote/);
    expect(existsSync(join(notBackup, 'pglite'))).toBe(false);
  }, 60_000);
});
