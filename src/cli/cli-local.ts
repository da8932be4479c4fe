import { randomBytes } from 'node:crypto';
import { acquireDataDirLock, DataDirLockedError, lockedMessage, type DataDirLock } from '../db/data-dir-lock.js';
import { UsageError, type ParsedRequest } from './cli-args.js';

export interface OperatorAnswer {
  status: number;
  body: unknown;
}

/**
 * Runs one operator operation in this process, through the app's own routes (app.inject), on
 * the configured database. The embedded database is locked for the duration, so the CLI never
 * writes beside a running server into a copy that server would never see.
 */
export async function runInProcess(request: ParsedRequest, processEnv: NodeJS.ProcessEnv): Promise<OperatorAnswer> {
  const { ConfigError, loadConfig } = await import('../config.js');
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'silent', ...processEnv };
  const adminToken = env.ADMIN_TOKEN ?? randomBytes(24).toString('hex');
  let config;
  try {
    config = loadConfig({ ...env, ADMIN_TOKEN: adminToken });
  } catch (err) {
    throw err instanceof ConfigError ? new UsageError(err.message) : err;
  }
  let lock: DataDirLock | undefined;
  if (!config.DATABASE_URL) {
    try {
      lock = acquireDataDirLock(config.DATA_DIR, 'cli');
    } catch (err) {
      throw err instanceof DataDirLockedError ? new UsageError(lockedMessage(err, 'cli')) : err;
    }
    process.on('exit', () => lock?.release());
  }
  try {
    const { buildApp } = await import('../app.js');
    const app = await buildApp(config, { startJobs: false });
    try {
      await app.ready();
      const res = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: { authorization: `Bearer ${adminToken}` },
        ...(request.body ? { payload: request.body } : {}),
      });
      const type = String(res.headers['content-type'] ?? '');
      // An image is not for a terminal: say what came, so the command's answer stays readable.
      if (type.startsWith('image/'))
        return { status: res.statusCode, body: { image: { contentType: type, bytes: res.rawPayload.length } } };
      return { status: res.statusCode, body: res.body ? (res.json() as unknown) : { status: res.statusCode } };
    } finally {
      await app.close();
    }
  } finally {
    lock?.release();
  }
}
