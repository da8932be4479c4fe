import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createPostgresDatabase } from '../helpers/app.js';
import { startTcpProxy, type TcpProxy } from '../ops/tcp-proxy.js';

/**
 * A connection that the database drops while the app holds it between two statements (a
 * transaction waiting on other work), as every connection to a PostgreSQL leader does when it
 * dies in a failover (docs/failover.md). node-postgres reports that as an 'error' event on the
 * client, which the pool listens for only while the client is idle: on a checked-out client with
 * no listener it ended the whole process. It must instead fail that transaction, as unavailable.
 */
describe.runIf(process.env.DATABASE_URL)('a connection lost while checked out', () => {
  let store: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let database: Database;
  beforeAll(async () => {
    store = await createPostgresDatabase(process.env.DATABASE_URL!);
    const target = new URL(store.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(store.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    database = await openDatabase({ url: url.toString(), dataDir: '/nonexistent' });
  });
  afterAll(async () => {
    await database?.close().catch(() => {});
    await proxy?.close();
    await store?.drop();
  });

  it('fails the transaction as unavailable and leaves the process and the pool working', async () => {
    let failure: unknown;
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        proxy.cut();
        // The drop arrives while no statement runs on this connection.
        await new Promise((r) => setTimeout(r, 300));
        await tx.execute(sql`select 1`);
      })
      .catch((err: unknown) => {
        failure = err;
      });
    expect(isDatabaseUnavailable(failure)).toBe(true);
    proxy.restore();
    await expect(database.ping()).resolves.toBeUndefined();
  });
});
