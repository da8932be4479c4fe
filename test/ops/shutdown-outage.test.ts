import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../bench/seed.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startNameSwitch, type NameSwitch } from './name-switch.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** A URL like `url` that reaches its host through `proxy`, by the name `host`. */
function through(url: string, proxy: TcpProxy, host: string): string {
  const proxied = new URL(url);
  proxied.hostname = host;
  proxied.port = String(proxy.port);
  return proxied.toString();
}

const asRoot = process.getuid?.() === 0;

/**
 * PostgreSQL and Redis both gone before the server is told to stop, as in a compose stack whose
 * database and Redis containers were stopped first: their addresses refuse and their names no
 * longer resolve (the name server does not answer). SIGTERM must still end the process promptly
 * with exit 0. A lookup still running holds a thread that process.exit waits for, so
 * reconnection attempts piling up lookups kept the process alive long after "shut down cleanly".
 */
describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL && asRoot)('shutdown with the database and Redis gone', () => {
  let store: Store;
  let postgres: TcpProxy;
  let redis: TcpProxy;
  let names: NameSwitch;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    store = await createStore();
    const pgUrl = new URL(store.env.DATABASE_URL!);
    const redisUrl = new URL(process.env.REDIS_URL!);
    postgres = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    redis = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    names = await startNameSwitch(['postgres.outage.test', 'redis.outage.test']);
  });
  afterAll(async () => {
    server?.cleanup();
    await postgres?.close();
    await redis?.close();
    await names?.close();
    await store?.drop();
  });

  it('exits 0 within seconds of SIGTERM', async () => {
    server = await startServerProcess(
      {
        ...store.env,
        DATABASE_URL: through(store.env.DATABASE_URL!, postgres, 'postgres.outage.test'),
        REDIS_URL: through(process.env.REDIS_URL!, redis, 'redis.outage.test'),
        ADMIN_TOKEN,
        SHUTDOWN_GRACE_MS: '3000',
      },
      { launcher: names.launcher },
    );
    expect((await fetch(`http://127.0.0.1:${server.port}/ready`)).status).toBe(200);
    postgres.cut();
    redis.cut();
    names.forget();
    // Long enough for the job runner, the pools and the Redis client to retry a few times: each
    // system lookup of a forgotten name waits 10 s on the silent name server.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const started = performance.now();
    server.child.kill('SIGTERM');
    const exit = await Promise.race([
      server.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000)),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.logs.some((l) => l.includes('shut down cleanly'))).toBe(true);
  }, 90_000);
});
