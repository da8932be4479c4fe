import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { isSealed } from '../../src/at-rest/envelope.js';
import { createS3BlobStore } from '../../src/blobs/s3.js';
import type { TestContext } from '../helpers/app.js';
import { placeholder, useTestApp } from '../helpers/suite.js';
import { mirrored, photo } from '../identity/face-images.js';
import { api, captureAll, file, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';
import { startS3rver, useS3rverCredentials, type LocalS3 } from './s3rver.js';

const filesUnder = (dir: string) => {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
};

async function pipelineJob(ctx: TestContext, verificationId: string) {
  return rowsOf<{ state: string; last_error: string | null; attempts: number }>(
    await ctx.app.db.execute(
      sql`select state, last_error, attempts from jobs where queue = 'identity.pipeline' and payload->>'verificationId' = ${verificationId}`,
    ),
  )[0];
}

/** For one describe block: an s3rver, the AWS variables it accepts, and an app (with an identity tenant) keeping its blobs there. */
function useS3App(env: Record<string, string> = {}) {
  const s3 = placeholder<LocalS3>('the S3 server');
  let restoreCredentials: (() => void) | undefined;
  beforeAll(async () => {
    restoreCredentials = useS3rverCredentials();
    s3.fill(await startS3rver());
  });
  // Registered before the app's, so it runs after the app has closed.
  afterAll(async () => {
    await s3.filled()?.close();
    restoreCredentials?.();
  });
  const { ctx, tenant } = useTestApp(() => ({ env: { ...HIGH_LIMITS, ...s3.value.env, ...env } }), { tenant: identityTenant });
  return { s3: s3.value, ctx, tenant };
}

describe('identity uploads with BLOB_STORE=s3', () => {
  const { s3, ctx, tenant } = useS3App();

  it('keeps the document and every frame in the bucket, decides from them, and erasure deletes them from the bucket', async () => {
    const v = await captureAll(ctx, tenant.backend);
    const stored = await s3.keys(`identity/${v.id}/`);
    expect(stored).toHaveLength(1 + v.challenge.steps.length);
    expect(filesUnder(join(ctx.env.DATA_DIR!, 'blobs'))).toEqual([]);
    // Encrypted at rest (docs/operations.md, "Encryption at rest"): the raw objects hold no image.
    const raw = createS3BlobStore(s3.settings);
    for (const key of stored) {
      const bytes = await raw.get(key);
      expect(isSealed(bytes), key).toBe(true);
      expect(bytes.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47])), key).toBe(false);
      expect((await ctx.app.blobs.get(key)).subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
    await raw.close?.();
    expect((await settle(ctx, tenant.backend, v.id)).status).toBe('approved');

    const erased = await api(ctx).call('DELETE', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200);
    expect(erased.json().erased).toBe(true);
    expect(await s3.keys(`identity/${v.id}/`)).toEqual([]);
  });

  it('answers 503 {detail} to an upload while the bucket is down, keeps nothing of it, and takes it again once the bucket is back', async () => {
    const v = await api(ctx).createVerification(tenant.backend);
    await s3.stop();
    try {
      const res = await api(ctx).upload('document', v.handoff_token, [file(png(640, 480, { seed: 4242 }))]);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'The service is temporarily unavailable' });
      // A file of several upload parts, refused while most of it is still unread.
      const large = await api(ctx).upload('document', v.handoff_token, [file(png(2000, 1500, { seed: 4243, noisyRows: 1500 }))]);
      expect([large.statusCode, large.json()]).toEqual([503, { detail: 'The service is temporarily unavailable' }]);
      expect((await api(ctx).status(v.handoff_token)).json().next_step).toEqual({ type: 'document' });
    } finally {
      await s3.start();
    }
    expect(await s3.keys(`identity/${v.id}/`)).toEqual([]);
    const again = await api(ctx).upload('document', v.handoff_token, [file(png(640, 480, { seed: 4242 }))]);
    expect(again.statusCode, again.body).toBe(201);
    expect(await s3.keys(`identity/${v.id}/`)).toHaveLength(1);
  });

  it('answers 503 {detail} to an erasure while the bucket is down and erases nothing; the retry erases', async () => {
    const v = await captureAll(ctx, tenant.backend);
    await s3.stop();
    try {
      const res = await api(ctx).call('DELETE', `/v1/verifications/${v.id}`, tenant.backend);
      expect([res.statusCode, res.json()]).toEqual([503, { detail: 'The service is temporarily unavailable' }]);
      expect((await api(ctx).call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json().erased).toBe(false);
    } finally {
      await s3.start();
    }
    await api(ctx).call('DELETE', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200);
    expect(await s3.keys(`identity/${v.id}/`)).toEqual([]);
  });
});

// The pipeline reads the images only for the face checks: real inference, as in test/identity/faces.test.ts.
describe('the pipeline while the bucket is down (FACE_CHECKS=on)', { timeout: 240_000 }, () => {
  const { s3, ctx, tenant } = useS3App({ FACE_CHECKS: 'on', FACE_TIMEOUT_MS: '200000', FACE_WORKER_NICE: '0' });

  it('decides nothing and retries later; once the bucket is back the verification is decided from its images', async () => {
    // One person, each frame in its pose (left is the person's own left: a-2 as photographed).
    const front = [photo('a-3'), photo('a-6'), photo('a-4')];
    const right = await mirrored('a-2');
    let next = 0;
    const v = await captureAll(ctx, tenant.backend, {
      document: photo('a-1'),
      frames: (_step, pose) => (pose === 'left' ? photo('a-2') : pose === 'right' ? right : front[next++]!),
    });
    await s3.stop();
    try {
      await ctx.app.jobs.drain();
      const waiting = (await api(ctx).call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
      expect(waiting).toMatchObject({ status: 'processing', decision_reason: null });
      expect(await pipelineJob(ctx, v.id)).toMatchObject({
        state: 'pending',
        attempts: 1,
        last_error: expect.stringMatching(/blob store unavailable/),
      });
    } finally {
      await s3.start();
    }
    // The retry comes due a minute later (the queue's back-off after a failed run).
    ctx.clock.advance(60_000);
    const decided = await settle(ctx, tenant.backend, v.id);
    expect(decided).toMatchObject({ status: 'approved', decision_reason: null });
    expect((await pipelineJob(ctx, v.id))!.state).toBe('done');
  });
});
