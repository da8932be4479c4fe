import { UsageError } from './cli-args.js';

const USAGE = [
  'usage: npm run admin -- rotate-data-key',
  '',
  'Rewraps every data key under a new master key: DATA_KEY (or DATA_KEY_FILE) is the new key,',
  'DATA_KEY_PREVIOUS (or DATA_KEY_PREVIOUS_FILE) the one it replaces. With PostgreSQL the servers',
  'keep running, started with the same two settings; the embedded database needs the server',
  'stopped. docs/operations.md, "Encryption at rest", gives the steps.',
].join('\n');

/** `rotate-data-key`: prints a JSON summary, exits 0; usage and key errors exit 2. */
export async function runRotateDataKey(args: string[], help: boolean, processEnv: NodeJS.ProcessEnv): Promise<number> {
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.length > 0) throw new UsageError(`rotate-data-key takes no arguments (the keys come from the environment)\n${USAGE}`);
  const { ConfigError, loadConfig } = await import('../config.js');
  let config;
  try {
    config = loadConfig(processEnv);
  } catch (err) {
    throw err instanceof ConfigError ? new UsageError(err.message) : err;
  }
  const { acquireDataDirLock, DataDirLockedError, lockedMessage } = await import('../db/data-dir-lock.js');
  let lock;
  if (!config.DATABASE_URL) {
    try {
      lock = acquireDataDirLock(config.DATA_DIR, 'cli');
    } catch (err) {
      throw err instanceof DataDirLockedError ? new UsageError(lockedMessage(err, 'cli')) : err;
    }
  }
  const [{ openDatabase }, { rotateDataKey, blobStoreOf }, { DataKeyError }, { UnknownMasterKey }] = await Promise.all([
    import('../db/client.js'),
    import('../at-rest/rotate.js'),
    import('../at-rest/master-key.js'),
    import('../at-rest/envelope.js'),
  ]);
  try {
    const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
    const blobs = blobStoreOf(config);
    try {
      const rotated = await rotateDataKey(config, database.db, blobs);
      process.stdout.write(`${JSON.stringify({ rotated }, null, 2)}\n`);
      return 0;
    } catch (err) {
      if (err instanceof DataKeyError) throw new UsageError(err.message);
      if (err instanceof UnknownMasterKey) {
        throw new UsageError(`${err.message}: set DATA_KEY_PREVIOUS to the key being replaced (docs/operations.md, "Encryption at rest")`);
      }
      throw err;
    } finally {
      await blobs.close?.();
      await database.close();
    }
  } finally {
    lock?.release();
  }
}
