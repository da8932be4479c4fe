import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../bench/seed.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { expectRestored, populate, type Populated } from './backup-scenario.js';

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 120_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/**
 * The PostgreSQL procedure of docs/operations.md ("Backup and restore"), command for command, against the
 * PostgreSQL of DATABASE_URL: pg_dump in the custom format and a tar of the file blob store while
 * the server runs; pg_restore into a new database and the blobs into a new DATA_DIR; a server on
 * them holds everything.
 */
describe.runIf(process.env.DATABASE_URL)('the documented backup procedure on PostgreSQL', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'backup-postgres-'));
  let original: Store;
  let restored: Store;
  let server: ServerProcess | undefined;
  let populated: Populated;
  const start = (store: Store) =>
    startServerProcess({
      ...store.env,
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      JOBS_POLL_INTERVAL_MS: '100',
      CAPTURE_RATE_LIMIT_PER_MINUTE: '100000',
    });

  beforeAll(async () => {
    original = await createStore();
    restored = await createStore();
    server = await start(original);
    populated = await populate(`http://127.0.0.1:${server.port}`);
  }, 120_000);
  afterAll(async () => {
    server?.cleanup();
    await original?.drop();
    await restored?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('restores a dump and the blob store, taken while the server runs, into a server that holds everything', async () => {
    const dump = join(scratch, 'partner.dump');
    const blobs = join(scratch, 'blobs.tar.gz');
    // Backup (docs/operations.md): the database, then the blobs; the server keeps running.
    await run('pg_dump', ['--format=custom', `--dbname=${original.env.DATABASE_URL}`, `--file=${dump}`]);
    await run('tar', ['-C', original.env.DATA_DIR!, '-czf', blobs, 'blobs']);
    server!.child.kill('SIGTERM');
    expect(await server!.exited).toEqual({ code: 0, signal: null });

    // Restore (docs/operations.md): into an empty database and an empty DATA_DIR, then start the server.
    await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restored.env.DATABASE_URL}`, dump]);
    mkdirSync(restored.env.DATA_DIR!, { recursive: true });
    await run('tar', ['-C', restored.env.DATA_DIR!, '-xzf', blobs]);
    // The data key is in neither backup (docs/operations.md, "Backup and restore"): it is put in place from where the operator keeps it.
    copyFileSync(join(original.env.DATA_DIR!, 'data.key'), join(restored.env.DATA_DIR!, 'data.key'));
    server = await start(restored);
    await expectRestored(`http://127.0.0.1:${server.port}`, populated, scratch);
  }, 120_000);
});
