import { UsageError } from './cli-args.js';

const USAGE = [
  'usage: npm run admin -- backup <file>     (DATA_DIR is the embedded store to back up)',
  '       npm run admin -- restore <file>    (DATA_DIR is the new, empty directory to restore into)',
  '',
  'Both need the embedded database to themselves: stop the server first. With DATABASE_URL set',
  '(PostgreSQL) use pg_dump and pg_restore instead, as docs/operations.md shows.',
].join('\n');

/** `backup <file>` / `restore <file>`: prints a JSON summary, exits 0; usage errors exit 2. */
export async function runBackupCommand(name: 'backup' | 'restore', args: string[], help: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [file, ...extra] = args;
  if (!file || extra.length > 0 || file.startsWith('--')) throw new UsageError(`${name} takes one file name\n${USAGE}`);
  if (env.DATABASE_URL && env.DATABASE_URL !== 'memory://') {
    throw new UsageError(
      `${name} is for the embedded database; DATABASE_URL is set: back PostgreSQL up with pg_dump/pg_restore (docs/operations.md, "Backup and restore")`,
    );
  }
  const dataDir = env.DATA_DIR || './data';
  if (env.BLOB_STORE === 's3') {
    process.stderr.write(
      `${name}: uploads live in the S3 bucket (BLOB_STORE=s3), not in this file: back the bucket up with its own tools (docs/operations.md, "Backup and restore")\n`,
    );
  }
  const { backupDataDir, restoreDataDir } = await import('./backup.js');
  const summary = name === 'backup' ? await backupDataDir(dataDir, file) : await restoreDataDir(file, dataDir);
  process.stdout.write(`${JSON.stringify({ [name === 'backup' ? 'backedUp' : 'restored']: summary }, null, 2)}\n`);
  return 0;
}
