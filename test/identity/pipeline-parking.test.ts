import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BlobStoreUnavailable, type BlobStore } from '../../src/blobs/store.js';
import { rowsOf, type Db } from '../../src/db/client.js';
import { DocumentReadTimeout, type DocumentReader, type ReadResult } from '../../src/recognition/document/reader.js';
import { FaceAnalysisTimeout, type FacePool } from '../../src/recognition/faces/pool.js';
import { pipelineHandler } from '../../src/identity/pipeline/run.js';
import { WorkerCrashed } from '../../src/recognition/worker-pool.js';
import { silentMeter } from '../../src/metrics/meter.js';
import type { TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { captureAll, HIGH_LIMITS, identityTenant, passportMrz } from '../helpers/identity.js';

/**
 * Parking (docs/identity.md, "Bounded identity work"): a verification whose run passes its deadline, or whose
 * runs ended their worker or their process twice, is not tried again but goes to manual_review
 * `pipeline_error` with audit `verification.pipeline_error` `{error: "timeout" | "crashed"}`. The
 * pipeline handler runs here directly, with readers that time out, crash or never answer (a
 * process that died mid-run), on verifications that capture left in processing.
 */

const reading: ReadResult = { zone: null, text: '' };

/** A document reader whose reads answer with `answers`, in order (the last one repeats). */
function readerAnswering(...answers: (() => Promise<ReadResult>)[]): DocumentReader & { reads: number } {
  const reader = {
    reads: 0,
    start() {},
    read() {
      const answer = answers[Math.min(reader.reads, answers.length - 1)]!;
      reader.reads++;
      return answer();
    },
    // A card's two sides are one read here: the same answers, with no sides read.
    async readCard() {
      return { ...(await reader.read()), sides: null };
    },
    close: async () => {},
  };
  return reader;
}

const crash = () => Promise.reject(new WorkerCrashed('document reading', new Error('worker exited with code: 1')));
/** A run whose process died: the read never answers, so the run never ends. */
const neverAnswers = () => new Promise<ReadResult>(() => {});

function handlerWith(ctx: TestContext, documents: DocumentReader, more: { blobs?: BlobStore; faces?: FacePool; db?: Db } = {}) {
  const { app } = ctx;
  return pipelineHandler({
    db: more.db ?? app.db,
    clock: app.clock,
    dataKeys: app.dataKeys,
    blobs: more.blobs ?? app.blobs,
    webhooks: app.webhooks,
    logger: app.log,
    documents,
    meter: silentMeter,
    faces: more.faces ? { pool: more.faces, thresholds: { matchLow: 0.3, matchHigh: 0.4, yawTurn: 0.15, yawFront: 0.25 } } : undefined,
  });
}

const job = (verificationId: string) => ({ id: verificationId, queue: 'identity.pipeline', payload: { verificationId }, attempt: 1 });

async function state(ctx: TestContext, id: string) {
  const [row] = rowsOf<{ status: string; decision_reason: string | null; runs: number }>(
    await ctx.app.db.execute(
      sql`select status, decision_reason, pipeline_unfinished_runs as runs from identity_verifications where id = ${id}`,
    ),
  );
  const audit = rowsOf<{ type: string; data: unknown }>(
    await ctx.app.db.execute(sql`select type, data from identity_audit_events where verification_id = ${id} order by seq`),
  );
  return { ...row!, audit: audit.filter((e) => e.type.startsWith('verification.')).slice(-2) };
}

const parkedAs = (error: 'timeout' | 'crashed') => ({
  status: 'manual_review',
  decision_reason: 'pipeline_error',
  audit: [
    { type: 'verification.pipeline_error', data: { error } },
    { type: 'verification.manual_review', data: { reason: 'pipeline_error' } },
  ],
});

describe('identity pipeline: runs past their deadline or ending abnormally are parked', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });
  const processing = async () => (await captureAll(ctx, tenant.backend, { mrz: passportMrz() })).id;

  it('parks a run whose document reading passed its deadline at once: timeout, no second try', async () => {
    const id = await processing();
    const reader = readerAnswering(() => Promise.reject(new DocumentReadTimeout(12_000)));
    expect(await handlerWith(ctx, reader)(job(id))).toBeUndefined();
    expect(await state(ctx, id)).toMatchObject({ ...parkedAs('timeout'), runs: 1 });
    // The job ran again anyway (a duplicate): the verification is no longer in processing, nothing happens.
    await handlerWith(ctx, reader)(job(id));
    expect(reader.reads).toBe(1);
  });

  it('parks a run whose face analysis passed its deadline: timeout', async () => {
    const id = await processing();
    const faces = {
      start() {},
      analyze: () => Promise.reject(new FaceAnalysisTimeout(45_000)),
      running: 0,
      waiting: 0,
      threads: [],
      close: async () => {},
    } satisfies FacePool;
    // A passport zone read from the image, so that the run reaches the faces.
    const zone = { lines: passportMrz().split('\n') } as NonNullable<ReadResult['zone']>;
    await handlerWith(
      ctx,
      readerAnswering(() => Promise.resolve({ zone, text: zone.lines.join('\n') })),
      { faces },
    )(job(id));
    expect(await state(ctx, id)).toMatchObject(parkedAs('timeout'));
  });

  it('tries a run whose worker crashed once more, and parks it when the worker crashes again: crashed', async () => {
    const id = await processing();
    const reader = readerAnswering(crash);
    const handler = handlerWith(ctx, reader);
    const first = await handler(job(id));
    expect(first).toEqual({ retryAt: ctx.clock.now(), error: 'worker crashed' });
    expect(await state(ctx, id)).toMatchObject({ status: 'processing', runs: 1 });
    expect(await handler(job(id))).toBeUndefined();
    expect(await state(ctx, id)).toMatchObject({ ...parkedAs('crashed'), runs: 2 });
    expect(reader.reads).toBe(2);
  });

  it('decides normally when the second try after one worker crash succeeds', async () => {
    const id = await processing();
    const reader = readerAnswering(crash, () => Promise.resolve(reading));
    const handler = handlerWith(ctx, reader);
    await handler(job(id));
    await handler(job(id));
    expect(await state(ctx, id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_unreadable' });
  });

  it('parks, on its third start and before any heavy work, a job whose process died during two runs: crashed', async () => {
    const id = await processing();
    const reader = readerAnswering(neverAnswers);
    // Two runs that never end, as when the process running them died (the queue starts the job again after a restart).
    void handlerWith(ctx, reader)(job(id));
    await expect.poll(() => reader.reads).toBe(1);
    void handlerWith(ctx, reader)(job(id));
    await expect.poll(() => reader.reads).toBe(2);
    expect(await state(ctx, id)).toMatchObject({ status: 'processing', runs: 2 });
    await handlerWith(ctx, reader)(job(id));
    expect(reader.reads).toBe(2);
    expect(await state(ctx, id)).toMatchObject({ ...parkedAs('crashed'), runs: 3 });
  });

  it('does not count a run that storage could not serve: any number of those, then a normal decision', async () => {
    const id = await processing();
    const down: BlobStore = {
      ...ctx.app.blobs,
      get: () => Promise.reject(new BlobStoreUnavailable('get', new Error('connection refused'))),
    };
    const reader = readerAnswering(() => Promise.resolve(reading));
    for (let i = 0; i < 3; i++)
      await expect(handlerWith(ctx, reader, { blobs: down })(job(id))).rejects.toBeInstanceOf(BlobStoreUnavailable);
    expect(await state(ctx, id)).toMatchObject({ status: 'processing', runs: 0 });
    await handlerWith(ctx, reader)(job(id));
    expect(await state(ctx, id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_unreadable', runs: 1 });
  });

  it('does not park a run that lost its database: the job runs again and decides normally', async () => {
    const id = await processing();
    // The decision's write meets a standby being promoted, as in a failover (docs/failover.md): 25006.
    let refused = 0;
    const failingOver = new Proxy(ctx.app.db, {
      get(target, name) {
        if (name === 'transaction' && refused === 0) {
          refused += 1;
          return () => Promise.reject(Object.assign(new Error('cannot execute UPDATE in a read-only transaction'), { code: '25006' }));
        }
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const reader = readerAnswering(() => Promise.resolve(reading));
    await expect(handlerWith(ctx, reader, { db: failingOver })(job(id))).rejects.toMatchObject({ code: '25006' });
    expect(refused).toBe(1);
    expect(await state(ctx, id)).toMatchObject({ status: 'processing', runs: 0 });
    await handlerWith(ctx, reader)(job(id));
    expect(await state(ctx, id)).toMatchObject({ status: 'manual_review', decision_reason: 'document_unreadable', runs: 1 });
  });

  it('keeps any other error a pipeline fault at once, recorded as internal_error', async () => {
    const id = await processing();
    await handlerWith(
      ctx,
      readerAnswering(() => Promise.reject(new Error('unexpected'))),
    )(job(id));
    expect(await state(ctx, id)).toMatchObject({
      status: 'manual_review',
      decision_reason: 'pipeline_error',
      audit: [{ type: 'verification.pipeline_error', data: { error: 'internal_error' } }, { type: 'verification.manual_review' }],
    });
  });
});
