import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { startTracing } from './tracing/start.js';
import { acquireDataDirLock, DataDirLockedError, lockedMessage, reachableUrl, type DataDirLock } from './db/data-dir-lock.js';

/**
 * Listens, and on SIGTERM/SIGINT shuts down gracefully: stop accepting, let in-flight requests
 * and running jobs finish within SHUTDOWN_GRACE_MS, close the pools, exit 0. A job cut off by a
 * hard kill is not lost: its lease expires and the next process runs it again.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // The embedded database belongs to one process: refuse to start beside another holder.
  let lock: DataDirLock | undefined;
  if (!config.DATABASE_URL) {
    try {
      lock = acquireDataDirLock(config.DATA_DIR, 'server');
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        process.stderr.write(`${lockedMessage(err, 'server')}\n`);
        process.exit(2);
      }
      throw err;
    }
    process.on('exit', () => lock?.release());
  }
  // The embedded database takes seconds to start: it opens while the app's modules load.
  const database = openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  database.catch(() => {}); // its failure is reported once, by buildApp below
  const [{ buildApp }, { startupLines }, tracing] = await Promise.all([
    import('./app.js'),
    import('./startup-lines.js'),
    startTracing(config),
  ]);
  const app = await buildApp(config, { database, tracing });
  const grace = config.SHUTDOWN_GRACE_MS;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: grace }, 'shutting down: finishing in-flight requests and jobs');
    // Past the grace period, cut the connections still open so close() can finish.
    const cut = setTimeout(() => {
      app.log.warn('grace period over: closing the connections still open');
      app.server.closeAllConnections();
    }, grace);
    cut.unref();
    const force = setTimeout(() => {
      app.log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, grace + 5_000);
    force.unref();
    app.close().then(
      async () => {
        // The spans of the last requests and jobs, still buffered, go to the collector first.
        await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'could not flush the last traces'));
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  lock?.setUrl(reachableUrl(config.HOST, port));
  // For the person at the terminal: plain lines on stderr, so stdout stays JSON log lines.
  process.stderr.write(`${startupLines(config, port).join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
