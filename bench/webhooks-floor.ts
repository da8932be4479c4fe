// The floor under webhook throughput (docs/benchmarks.md, Background work): how fast a sender that does only
// the least a durable queue shared by several processes must do (claim a batch under a lease in
// PostgreSQL, send it, record the answers) delivers, against the same bare keep-alive loop and
// HTTPS receiver as bench/webhooks.ts. It runs none of the server's code: the sender is this
// file run as a child process (as the server is one), on a database of its own.
//
//   DATABASE_URL=postgres://… npm run bench:webhooks-floor
//
// BENCH_FLOOR_SENDER picks the sender:
// - `queue` (default): claims a narrow queue row (bigint id, one partial index per state), the
//   shape of the `jobs` table stripped to what a claim and an end read and write.
// - `delivery`: claims the delivery row itself as the job, with the indexes webhook_deliveries
//   carries (src/db/schema/webhooks.ts) and the two partial indexes a claim from it needs. A
//   claim then rewrites a wide row and every one of its indexes, where the product's claim
//   rewrites the narrow job row and its delivery's attempt count in place (no indexed column
//   changes).
//   Both claim with a per-endpoint cap of 4 counted across processes, as the product does, and
//   write an attempt row per delivery.
// - `graphile-worker`: the library (its own schema, batched fetches and completions, 64 jobs at
//   once), one job per delivery. It has no per-endpoint cap and writes no attempt row.
// - `pg-boss`: the library, one job per delivery, four workers fetching 16 at a time (64 in
//   flight). Each worker waits out its polling interval (0.5 s at least) after every batch it
//   fetched, however quick (node_modules/pg-boss/src/worker.js), so its rate is capped near
//   64 per 0.5 s whatever the database can do.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:https';
import { Logger, makeWorkerUtils, run as runGraphileWorker, runMigrations } from 'graphile-worker';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { serviceHmacSigner } from '../src/webhooks/signers.js';
import { BARE_IN_FLIGHT, bareLoop, benchCertificate, startReceiver } from './webhooks.js';
import { createStore } from './seed.js';

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 20_000);
const ENDPOINTS = 16;
const PER_ENDPOINT = 4;
/** Claims in flight at once, each of BATCH deliveries: 64 in flight, the product's 16 endpoints × 4. */
const LOOPS = 4;
const BATCH = 16;
const SENDERS = ['queue', 'delivery', 'graphile-worker', 'pg-boss'] as const;
const SENDER = SENDERS.find((s) => s === process.env.BENCH_FLOOR_SENDER) ?? 'queue';
type Table = 'queue' | 'delivery';
const log = (msg: string) => process.stderr.write(`floor: ${msg}\n`);
/** graphile-worker's logger, silenced: the bench prints its own lines. */
const quiet = new Logger(() => () => {});
/** The library queue's name, for `pg-boss`. */
const PG_BOSS_QUEUE = 'deliver';
const eventJson = (g: number) =>
  JSON.stringify({ id: randomUUID(), type: 'webhook.test', created: new Date().toISOString(), data: { n: g } });

const SCHEMA: Record<Table, string[]> = {
  queue: [
    `create table q (id bigserial primary key, endpoint int not null, state text not null, attempts int not null default 0,
      locked_until timestamptz, status_code int, body text not null)`,
    `create index q_pending on q (id) where state = 'pending'`,
    `create index q_running on q (endpoint) where state = 'running'`,
  ],
  delivery: [
    `create table q (id uuid primary key, event_id uuid not null, endpoint int not null, url text not null, signer text not null,
      policy text not null, state text not null, attempts int not null default 0, max_attempts int not null default 8,
      next_attempt_at timestamptz, locked_until timestamptz, status_code int, last_error text, job_id uuid,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now(), body text not null)`,
    `create index q_endpoint on q (endpoint, created_at)`,
    `create index q_state on q (state, created_at)`,
    `create index q_event on q (event_id)`,
    `create index q_pending on q (next_attempt_at) where state = 'pending' and locked_until is null`,
    `create index q_running on q (endpoint) where state = 'pending' and locked_until is not null`,
  ],
};

/** Claims up to BATCH rows, at most PER_ENDPOINT of one endpoint in flight across all claimers. */
const CLAIM: Record<Table, string> = {
  queue: `with busy as (select endpoint, count(*) as n from q where state = 'running' group by endpoint),
      candidates as (select id, endpoint from q where state = 'pending' order by id limit ${BATCH * 4}),
      ranked as materialized (select c.id, coalesce(b.n, 0) + row_number() over (partition by c.endpoint order by c.id) as nth
        from candidates c left join busy b using (endpoint))
    update q set state = 'running', attempts = attempts + 1, locked_until = now() + interval '60 s'
    where id in (select q.id from q join ranked r on r.id = q.id where r.nth <= ${PER_ENDPOINT} and q.state = 'pending'
      order by q.id limit ${BATCH} for update of q skip locked)
    returning id, endpoint, attempts, body`,
  delivery: `with busy as (select endpoint, count(*) as n from q where state = 'pending' and locked_until is not null group by endpoint),
      candidates as (select id, endpoint, next_attempt_at from q where state = 'pending' and locked_until is null
        order by next_attempt_at limit ${BATCH * 4}),
      ranked as materialized (select c.id, coalesce(b.n, 0) + row_number() over (partition by c.endpoint order by c.next_attempt_at) as nth
        from candidates c left join busy b using (endpoint))
    update q set locked_until = now() + interval '60 s', attempts = attempts + 1, updated_at = now()
    where id in (select q.id from q join ranked r on r.id = q.id where r.nth <= ${PER_ENDPOINT} and q.state = 'pending'
      and q.locked_until is null order by q.next_attempt_at limit ${BATCH} for update of q skip locked)
    returning id, endpoint, attempts, body`,
};

/** Records the answers: the row's end and one attempt row per delivery, in one statement. */
const END: Record<Table, string> = {
  queue: `with r as (select * from unnest($1::bigint[], $2::int[], $3::int[]) as r(id, attempt, code)),
      ended as (update q set state = 'done', status_code = r.code, locked_until = null from r where q.id = r.id)
    insert into a (id, attempt, status_code, started_at) select id::text, attempt, code, now() from r`,
  delivery: `with r as (select * from unnest($1::uuid[], $2::int[], $3::int[]) as r(id, attempt, code)),
      ended as (update q set state = 'succeeded', status_code = r.code, locked_until = null, next_attempt_at = null,
        updated_at = now() from r where q.id = r.id)
    insert into a (id, attempt, status_code, started_at) select id::text, attempt, code, now() from r`,
};

interface SenderTask {
  databaseUrl: string;
  port: number;
  ca: string;
  /** Deliveries queued for this round. */
  n: number;
}

/** Signs and POSTs one delivery to its endpoint's path on keep-alive connections; answers the status code. */
function poster(task: SenderTask) {
  const agents = Array.from({ length: ENDPOINTS }, () => new Agent({ keepAlive: true, ca: task.ca, maxSockets: PER_ENDPOINT * 4 }));
  const post = (row: { id: string; endpoint: number; body: string }) =>
    new Promise<number>((resolve, reject) => {
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(row.body)),
        'service-delivery-id': String(row.id),
        ...serviceHmacSigner.sign({
          eventId: String(row.id),
          timestampSec: Math.floor(Date.now() / 1000),
          body: row.body,
          secrets: ['whsec_floor'],
        }),
      };
      const req = request(
        { host: '127.0.0.1', port: task.port, path: `/t${row.endpoint}`, method: 'POST', agent: agents[row.endpoint], headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(row.body);
    });
  return { post, close: () => agents.forEach((agent) => agent.destroy()) };
}

/** The child, for a table of its own: claims, sends and records until nothing is left; answers deliveries per second. */
async function sendFromTable(task: SenderTask, table: Table): Promise<number> {
  // Committing as the product's bookkeeping pool does (src/db/client.ts).
  const pool = new pg.Pool({ connectionString: task.databaseUrl, max: LOOPS * 2, options: '-c synchronous_commit=off' });
  const { post, close } = poster(task);
  let delivered = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      for (;;) {
        const { rows } = await pool.query<{ id: string; endpoint: number; attempts: number; body: string }>(CLAIM[table]);
        if (rows.length === 0) return;
        const codes = await Promise.all(rows.map(post));
        await pool.query(END[table], [rows.map((r) => r.id), rows.map((r) => r.attempts), codes]);
        delivered += rows.length;
      }
    }),
  );
  const rate = delivered / ((performance.now() - started) / 1000);
  await pool.end();
  close();
  return rate;
}

/**
 * Counts a library sender's deliveries in one round: the rate runs from the first delivery's
 * start to the n-th one's end (the library's own start-up left out), and `done` resolves then.
 */
function roundClock(n: number) {
  let first: number | undefined;
  let last = 0;
  let delivered = 0;
  let allDone!: () => void;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  return {
    done,
    started: () => void (first ??= performance.now()),
    delivered(count: number) {
      delivered += count;
      last = performance.now();
      if (delivered >= n) allDone();
    },
    rate: () => n / ((last - first!) / 1000),
  };
}

/** The child, with graphile-worker: runs the round's jobs; answers deliveries per second from the first job's start. */
async function sendWithGraphileWorker(task: SenderTask): Promise<number> {
  const { post, close } = poster(task);
  const clock = roundClock(task.n);
  const runner = await runGraphileWorker({
    connectionString: task.databaseUrl,
    concurrency: PER_ENDPOINT * ENDPOINTS,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quiet,
    preset: { worker: { localQueue: { size: PER_ENDPOINT * ENDPOINTS }, completeJobBatchDelay: 0 } },
    taskList: {
      deliver: async (payload, helpers) => {
        clock.started();
        const { endpoint, body } = payload as { endpoint: number; body: string };
        const code = await post({ id: helpers.job.id, endpoint, body });
        if (code !== 200) throw new Error(`the receiver answered ${code}`);
        clock.delivered(1);
      },
    },
  });
  await clock.done;
  await runner.stop();
  close();
  return clock.rate();
}

/** The child, with pg-boss: runs the round's jobs; answers deliveries per second from the first job's start. */
async function sendWithPgBoss(task: SenderTask): Promise<number> {
  const { post, close } = poster(task);
  const clock = roundClock(task.n);
  const boss = new PgBoss({ connectionString: task.databaseUrl, max: LOOPS * 2, supervise: false, migrate: false });
  boss.on('error', (err: unknown) => log(`pg-boss: ${String(err)}`));
  await boss.start();
  for (let i = 0; i < LOOPS; i++) {
    await boss.work<{ endpoint: number; body: string }>(PG_BOSS_QUEUE, { batchSize: BATCH, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      clock.started();
      const codes = await Promise.all(jobs.map((job) => post({ id: job.id, endpoint: job.data.endpoint, body: job.data.body })));
      if (codes.some((code) => code !== 200)) throw new Error(`the receiver answered ${codes.join(', ')}`);
      clock.delivered(jobs.length);
    });
  }
  await clock.done;
  await boss.stop({ graceful: true, wait: true });
  close();
  return clock.rate();
}

async function withClient(databaseUrl: string, use: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}

/** Queues n deliveries for the sender, in one transaction. */
async function fill(databaseUrl: string, n: number): Promise<void> {
  if (SENDER === 'pg-boss') {
    const boss = new PgBoss({ connectionString: databaseUrl, supervise: false, migrate: false });
    await boss.start();
    try {
      await boss.insert(
        Array.from({ length: n }, (_, g) => ({ name: PG_BOSS_QUEUE, data: { endpoint: g % ENDPOINTS, body: eventJson(g) } })),
      );
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    return;
  }
  if (SENDER === 'graphile-worker') {
    const utils = await makeWorkerUtils({ connectionString: databaseUrl, logger: quiet });
    try {
      await utils.addJobs(
        Array.from({ length: n }, (_, g) => ({ identifier: 'deliver', payload: { endpoint: g % ENDPOINTS, body: eventJson(g) } })),
      );
    } finally {
      await utils.release();
    }
    return;
  }
  await withClient(databaseUrl, async (client) => {
    const body = `jsonb_build_object('id', gen_random_uuid(), 'type', 'webhook.test', 'created', now(), 'data', jsonb_build_object('n', g))::text`;
    await client.query(
      SENDER === 'queue'
        ? `insert into q (endpoint, state, body) select g % ${ENDPOINTS}, 'pending', ${body} from generate_series(1, $1::int) g`
        : `insert into q (id, event_id, endpoint, url, signer, policy, state, next_attempt_at, body)
           select gen_random_uuid(), gen_random_uuid(), g % ${ENDPOINTS}, 'https://127.0.0.1/t' || (g % ${ENDPOINTS}), 'service-hmac',
             'default', 'pending', now(), ${body} from generate_series(1, $1::int) g`,
      [n],
    );
    await client.query('analyze q');
  });
}

async function prepare(databaseUrl: string): Promise<void> {
  if (SENDER === 'pg-boss') {
    const boss = new PgBoss({ connectionString: databaseUrl, supervise: false });
    await boss.start();
    await boss.createQueue(PG_BOSS_QUEUE);
    await boss.stop({ graceful: false, wait: true });
    return;
  }
  if (SENDER === 'graphile-worker') {
    await runMigrations({ connectionString: databaseUrl, logger: quiet });
    return;
  }
  await withClient(databaseUrl, async (client) => {
    for (const statement of [
      ...SCHEMA[SENDER],
      'create table a (id text, attempt int, status_code int, started_at timestamptz, primary key (id, attempt))',
    ])
      await client.query(statement);
  });
}

async function measureFloor(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('the floor is measured on PostgreSQL: set DATABASE_URL');
  const store = await createStore();
  const databaseUrl = store.env.DATABASE_URL!;
  const pems = await benchCertificate();
  const receiver = await startReceiver({ key: pems.key, cert: pems.cert });
  const sender = fork(process.argv[1]!, ['sender'], { execArgv: process.execArgv });
  const run = async (n: number) => {
    await fill(databaseUrl, n);
    return new Promise<number>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the sender exited (${code}) before answering`));
      sender.once('exit', exited);
      sender.once('message', (rate) => {
        sender.off('exit', exited);
        resolve(rate as number);
      });
      sender.send({ databaseUrl, port: receiver.port, ca: pems.cert, n } satisfies SenderTask);
    });
  };
  try {
    await prepare(databaseUrl);
    const agent = new Agent({ keepAlive: true, ca: pems.cert, maxSockets: BARE_IN_FLIGHT });
    await bareLoop(receiver, agent, 1000);
    // Alternated, so that a machine that slows down or speeds up during the run moves both.
    for (let round = 1; round <= 3; round++) {
      const bare = await bareLoop(receiver, agent, DELIVERIES);
      await run(1000);
      const floor = await run(DELIVERIES);
      log(`round ${round}: bare loop ${Math.round(bare)} /s, ${SENDER} ${Math.round(floor)} /s (${(floor / bare).toFixed(2)} ×)`);
      process.stdout.write(`${JSON.stringify({ sender: SENDER, round, bareLoopPerS: Math.round(bare), floorPerS: Math.round(floor) })}\n`);
    }
    agent.destroy();
  } finally {
    sender.kill();
    await receiver.close();
    await store.drop();
  }
}

if (process.argv[2] === 'sender') {
  process.on('message', (task: SenderTask) => {
    (SENDER === 'graphile-worker'
      ? sendWithGraphileWorker(task)
      : SENDER === 'pg-boss'
        ? sendWithPgBoss(task)
        : sendFromTable(task, SENDER)
    ).then(
      (rate) => process.send!(rate),
      (err: unknown) => {
        process.stderr.write(`floor sender failed: ${err instanceof Error ? err.stack : String(err)}\n`);
        process.exit(1);
      },
    );
  });
} else if (process.argv[1]?.endsWith('bench/webhooks-floor.ts')) {
  measureFloor().catch((err: unknown) => {
    process.stderr.write(`floor failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
