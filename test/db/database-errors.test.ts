import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../src/db/client.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createPostgresDatabase } from '../helpers/app.js';

/**
 * What counts as "the database cannot do this now" (503, retry) and what stays a bug (500): the
 * one place every API's answer is classified (src/db/errors.ts). The errors are those each moment
 * of a failover produces (docs/failover.md), as node-postgres reports them and as drizzle wraps them.
 */
const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
const wrapped = (cause: Error) => new DrizzleQueryError('insert into governance_records …', [], cause);

describe('isDatabaseUnavailable', () => {
  const unavailable: [string, Error][] = [
    [
      'the leader refused connections (its port closed)',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED' }),
    ],
    ['a connection reset under a query', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a connection that ended mid-transaction', new Error('Connection terminated unexpectedly')],
    ['a client used after its connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['a client used after it was closed', new Error('Client was closed and is not queryable')],
    ['no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['57P01 admin_shutdown', sqlError('57P01', 'terminating connection due to administrator command')],
    ['57P02 crash_shutdown', sqlError('57P02', 'terminating connection because of crash of another server process')],
    ['57P03 cannot_connect_now', sqlError('57P03', 'the database system is starting up')],
    ['08006 connection_failure', sqlError('08006', 'connection failure')],
    ['25006 read_only_sql_transaction (a standby being promoted)', sqlError('25006', 'cannot execute INSERT in a read-only transaction')],
    ['40001 serialization_failure', sqlError('40001', 'could not serialize access due to concurrent update')],
    ['40P01 deadlock_detected', sqlError('40P01', 'deadlock detected')],
    ['40003 statement_completion_unknown', sqlError('40003', 'statement completion unknown')],
  ];
  it.each(unavailable)('says unavailable: %s, bare and as drizzle wraps it', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(true);
  });

  const bugs: [string, Error][] = [
    ['23505 unique_violation', sqlError('23505', 'duplicate key value violates unique constraint')],
    ['42P01 undefined_table', sqlError('42P01', 'relation "nope" does not exist')],
    ['42601 syntax_error', sqlError('42601', 'syntax error at or near "selec"')],
    ['22P02 invalid_text_representation', sqlError('22P02', 'invalid input syntax for type uuid')],
    ['XX000 internal_error', sqlError('XX000', 'cannot assign TransactionIds during recovery')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'seq')")],
  ];
  it.each(bugs)('leaves a bug a bug: %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(isDatabaseUnavailable(wrapped(err))).toBe(false);
  });

  it('reads nothing into values that are not errors', () => {
    for (const value of [undefined, null, 'ECONNRESET', 25006, {}]) expect(isDatabaseUnavailable(value)).toBe(false);
  });
});

/** The same errors, made by a real PostgreSQL and reported through the server's own pool and drizzle. */
describe.runIf(process.env.DATABASE_URL)('isDatabaseUnavailable on what PostgreSQL answers', () => {
  let store: { url: string; drop: () => Promise<void> };
  let database: Database;
  beforeAll(async () => {
    store = await createPostgresDatabase(process.env.DATABASE_URL!);
    database = await openDatabase({ url: store.url, dataDir: '/nonexistent' });
    await database.db.execute(sql`create table t (id int primary key, n int not null)`);
    await database.db.execute(sql`insert into t values (1, 0), (2, 0)`);
  });
  afterAll(async () => {
    await database?.close().catch(() => {});
    await store?.drop();
  });
  const failure = (run: Promise<unknown>) =>
    run.then(
      () => expect.fail('it should have failed'),
      (err: unknown) => err,
    );

  it('a write on a server that takes none (25006), as on a standby not yet promoted', async () => {
    const err = await failure(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`set transaction read only`);
        await tx.execute(sql`update t set n = n + 1 where id = 1`);
      }),
    );
    expect(err).toMatchObject({ cause: { code: '25006' } });
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('a transaction whose connection is terminated by the server between two statements (57P01)', async () => {
    const err = await failure(
      database.db.transaction(async (tx) => {
        const [row] = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`));
        await database.pool!.query('select pg_terminate_backend($1)', [row!.pid]);
        await new Promise((r) => setTimeout(r, 200));
        await tx.execute(sql`update t set n = n + 1 where id = 1`);
      }),
    );
    expect(isDatabaseUnavailable(err)).toBe(true);
    // Nothing of it committed, and the pool works on.
    expect(rowsOf(await database.db.execute(sql`select n from t where id = 1`))).toEqual([{ n: 0 }]);
  });

  it('a deadlock (40P01) and a serialization failure (40001): rolled back, to be run again', async () => {
    const a = await database.pool!.connect();
    const b = await database.pool!.connect();
    try {
      await a.query('begin');
      await b.query('begin');
      await a.query('update t set n = n + 1 where id = 1');
      await b.query('update t set n = n + 1 where id = 2');
      const outcomes = await Promise.allSettled([
        a.query('update t set n = n + 1 where id = 2'),
        b.query('update t set n = n + 1 where id = 1'),
      ]);
      const deadlock = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(deadlock.reason).toMatchObject({ code: '40P01' });
      expect(isDatabaseUnavailable(deadlock.reason)).toBe(true);
      await a.query('rollback');
      await b.query('rollback');

      await a.query('begin isolation level repeatable read');
      await a.query('select n from t where id = 1');
      await b.query('update t set n = n + 1 where id = 1');
      const serialization = await failure(a.query('update t set n = n + 1 where id = 1'));
      expect(serialization).toMatchObject({ code: '40001' });
      expect(isDatabaseUnavailable(serialization)).toBe(true);
      await a.query('rollback');
    } finally {
      a.release();
      b.release();
    }
  });

  it('a bad statement stays a bug', async () => {
    const err = await failure(database.db.execute(sql`insert into t values (1, 0)`));
    expect(err).toMatchObject({ cause: { code: '23505' } });
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
