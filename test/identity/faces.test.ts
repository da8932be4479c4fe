import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import type { TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { mirrored, photo, reencoded, sideBySide } from './face-images.js';
import { api, captureAll, HIGH_LIMITS, identityTenant, settle } from '../helpers/identity.js';
import { png } from '../../scripts/fixtures/images.js';

type Pose = 'front' | 'left' | 'right' | null;

/**
 * Frames by pose from a set of images: `front` takes the next of the front images. `left` is the
 * person's own left, so an unmirrored frame shows the face turned toward the image's right edge
 * (person-a-2 as photographed; its mirrored copy turns the other way).
 */
function framesFrom(set: { front: Buffer[]; left: Buffer; right: Buffer }) {
  let next = 0;
  return (_step: number, pose: Pose) => (pose === 'left' ? set.left : pose === 'right' ? set.right : set.front[next++]!);
}

async function signalsOf(ctx: TestContext, id: string): Promise<any> {
  return rowsOf<{ signals: any }>(await ctx.app.db.execute(sql`select signals from identity_verifications where id = ${id}`))[0]!.signals;
}

async function auditTypes(ctx: TestContext, id: string): Promise<string[]> {
  return rowsOf<{ type: string }>(
    await ctx.app.db.execute(sql`select type from identity_audit_events where verification_id = ${id} order by seq`),
  ).map((r) => r.type);
}

// Real inference on a shared, busy CPU (at normal priority: a niced worker starves among other
// test runs): the first case also waits for the worker to load its models.
describe('identity pipeline with face checks (FACE_CHECKS=on, one shared worker)', { timeout: 240_000 }, () => {
  const { ctx, tenant } = useTestApp(
    { env: { ...HIGH_LIMITS, FACE_CHECKS: 'on', FACE_TIMEOUT_MS: '200000', FACE_WORKER_NICE: '0' } },
    { tenant: identityTenant },
  );
  let personA: { front: Buffer[]; left: Buffer; right: Buffer };
  beforeAll(async () => {
    personA = { front: [photo('a-3'), photo('a-6'), photo('a-4')], left: photo('a-2'), right: await mirrored('a-2') };
  });

  it('issues challenges with one left, one right and 1–3 front steps, each saying its pose in words', async () => {
    const v = await captureAll(ctx, tenant.backend, { document: photo('a-1'), frames: framesFrom(personA) });
    const poses = v.challenge.steps.map((s: { pose: Pose }) => s.pose);
    // The device is told the thresholds the pipeline below judges by, so its own check agrees with it.
    expect(v.challenge.pose_check).toEqual({ yaw_turn: ctx.app.config.FACE_YAW_TURN, yaw_front: ctx.app.config.FACE_YAW_FRONT });
    expect(poses.filter((p: Pose) => p === 'left')).toHaveLength(1);
    expect(poses.filter((p: Pose) => p === 'right')).toHaveLength(1);
    expect(poses.filter((p: Pose) => p === 'front').length).toBeGreaterThanOrEqual(1);
    for (const s of v.challenge.steps) {
      expect(s.instruction).toMatch(s.pose === 'front' ? /straight at the camera/ : s.pose === 'left' ? /your own left/ : /your own right/);
    }
    // The same person, each frame in its pose: approved, with the measurements stored.
    const decided = await settle(ctx, tenant.backend, v.id);
    expect(decided).toMatchObject({ status: 'approved', decision_reason: null });
    const signals = await signalsOf(ctx, v.id);
    expect(signals.document).toMatchObject({ face_count: 1 });
    expect(signals.frames).toHaveLength(v.challenge.steps.length);
    for (const f of signals.frames) {
      expect(f).toMatchObject({ face_count: 1, pose: v.challenge.steps[f.step].pose });
      expect(f.faces[0]).toMatchObject({
        score: expect.any(Number),
        box: expect.any(Array),
        yaw: expect.any(Number),
        antispoof: expect.any(Number),
        liveness: expect.any(Number),
      });
      if (f.pose === 'left') expect(f.faces[0].yaw).toBeLessThan(-0.15);
      if (f.pose === 'right') expect(f.faces[0].yaw).toBeGreaterThan(0.15);
    }
    expect(signals.document_similarity).toBeGreaterThanOrEqual(0.4);
    expect(signals.frame_consistency.min).toEqual(expect.any(Number));
    expect(JSON.stringify(signals)).not.toMatch(/embedding/);

    // Erasure takes the measurements with it.
    await api(ctx).call('DELETE', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200);
    expect(await signalsOf(ctx, v.id)).toEqual({});
  });

  it("declines another person's selfies against the document (face_mismatch) or sends them to review", async () => {
    const personB = { front: [photo('b-1'), photo('b-6'), await mirrored('b-1')], left: await mirrored('b-4'), right: photo('b-4') };
    const v = await captureAll(ctx, tenant.backend, { document: await reencoded('a-1', 91), frames: framesFrom(personB) });
    const decided = await settle(ctx, tenant.backend, v.id);
    expect(['face_mismatch', 'face_match_uncertain']).toContain(decided.decision_reason);
    expect(decided.status).toBe(decided.decision_reason === 'face_mismatch' ? 'declined' : 'manual_review');
    // On these fixtures the scores sit clearly below the low threshold.
    expect(decided).toMatchObject({ status: 'declined', decision_reason: 'face_mismatch' });
    expect((await signalsOf(ctx, v.id)).document_similarity).toBeLessThan(0.3);
  });

  it('declines a document without a face (noise) as no_face_document', async () => {
    const v = await captureAll(ctx, tenant.backend, {
      document: png(640, 480, { seed: 4242, noisyRows: 480 }),
      frames: framesFrom(personA),
    });
    expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'no_face_document' });
    expect((await signalsOf(ctx, v.id)).document.face_count).toBe(0);
  });

  it('declines a frame without a face as no_face_selfie', async () => {
    const frames = framesFrom(personA);
    const v = await captureAll(ctx, tenant.backend, {
      document: await reencoded('a-1', 92),
      frames: (step, pose) => (pose === 'right' ? png(640, 480, { seed: 777, noisyRows: 480 }) : frames(step, pose)),
    });
    expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'no_face_selfie' });
  });

  it('sends an image with two faces to manual_review as multiple_faces, the scores in view', async () => {
    const v = await captureAll(ctx, tenant.backend, { document: await sideBySide('a-1', 'c-2'), frames: framesFrom(personA) });
    expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'manual_review', decision_reason: 'multiple_faces' });
    expect((await signalsOf(ctx, v.id)).document.face_count).toBe(2);
    const queue = (await api(ctx).call('GET', '/v1/review', tenant.reviewer, undefined, 200)).json();
    expect(queue.items).toContainEqual(expect.objectContaining({ id: v.id, reason: 'multiple_faces' }));
  });

  it('declines a mirrored frame for a left step (the head turned to the right) as challenge_not_followed', async () => {
    // Left and right swapped: the mirrored photo answers the left step.
    const v = await captureAll(ctx, tenant.backend, {
      document: await reencoded('a-1', 93),
      frames: framesFrom({ ...personA, left: personA.right, right: personA.left }),
    });
    expect(await settle(ctx, tenant.backend, v.id)).toMatchObject({ status: 'declined', decision_reason: 'challenge_not_followed' });
    const left = (await signalsOf(ctx, v.id)).frames.find((f: { pose: Pose }) => f.pose === 'left');
    expect(left.faces[0].yaw).toBeGreaterThan(0.15);
  });

  it('tries a job whose worker was killed mid-run once more, parks it in manual_review when killed again, and the pool recovers', async () => {
    const pool = ctx.app.faces!;
    const v = await captureAll(ctx, tenant.backend, { document: await reencoded('a-1', 94), frames: framesFrom(personA) });
    const decided = settle(ctx, tenant.backend, v.id);
    // A crashed worker is an abnormal end: the run is tried once more, and parked after the second.
    for (let kill = 0; kill < 2; kill++) {
      while (pool.running === 0) await new Promise((r) => setTimeout(r, 5));
      await Promise.all(pool.threads.map((t) => t.terminate()));
      while (pool.running > 0) await new Promise((r) => setTimeout(r, 5));
    }
    expect(await decided).toMatchObject({ status: 'manual_review', decision_reason: 'pipeline_error' });
    expect((await auditTypes(ctx, v.id)).slice(-2)).toEqual(['verification.pipeline_error', 'verification.manual_review']);
    // Parked for the crash, not for running into the deadline (FACE_TIMEOUT_MS) behind a thread that never took it.
    const [parkedFor] = rowsOf<{ data: { error: string } }>(
      await ctx.app.db.execute(
        sql`select data from identity_audit_events where verification_id = ${v.id} and type = 'verification.pipeline_error'`,
      ),
    );
    expect(parkedFor!.data.error).toBe('crashed');
    expect(await signalsOf(ctx, v.id)).toEqual({});
    // A fresh worker takes over: the next verification is decided normally.
    const next = await captureAll(ctx, tenant.backend, { document: await reencoded('a-1', 95), frames: framesFrom(personA) });
    expect(await settle(ctx, tenant.backend, next.id)).toMatchObject({ status: 'approved' });
  });
});
