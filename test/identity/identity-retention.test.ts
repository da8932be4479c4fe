import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { RETENTION_ACTOR } from '../../src/identity/retention.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, captureIntoManualReview, HIGH_LIMITS, identityTenant, passportMrz, settle } from '../helpers/identity.js';
import type { TestContext } from '../helpers/app.js';
import { TEST_DELAYS } from '../helpers/webhooks.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The verification as its backend reads it. */
const read = async (ctx: TestContext, key: string, id: string) =>
  (await api(ctx).call('GET', `/v1/verifications/${id}`, key, undefined, 200)).json();

/** The files the blob store holds for a verification (its document sides and frames). */
const blobsOf = (ctx: TestContext, id: string) => {
  const dir = join(ctx.env.DATA_DIR!, 'blobs', 'identity', id);
  return existsSync(dir) ? readdirSync(dir) : [];
};

const lastAudit = async (ctx: TestContext, id: string) =>
  rowsOf<{ type: string; actor: string }>(
    await ctx.app.db.execute(sql`select type, actor from identity_audit_events where verification_id = ${id} order by seq desc limit 1`),
  )[0];

/**
 * A profile's identityRetentionDays (docs/operations.md, "Retention"): decided verifications are erased that
 * many days after their decision by an hourly housekeeping job, exactly as DELETE
 * /v1/verifications/{id} erases them. Two rows a batch here, so one run covers several batches.
 */
describe('identity retention (PATCH /admin/v1/profiles/{id} identityRetentionDays)', () => {
  const { ctx, purged, kept } = useTestApp(
    { env: { ...HIGH_LIMITS, WEBHOOK_RETRY_DELAYS_MS: TEST_DELAYS }, retentionBatch: 2 },
    { purged: identityTenant, kept: identityTenant },
  );

  it('is null on a profile until set, 1 to 3650 or null; anything else is refused with the field named', async () => {
    const path = `/profiles/${purged.profileId}`;
    expect((await ctx.admin('GET', path)).data.identityRetentionDays).toBeNull();
    for (const bad of [0, 3651, 1.5, '30', -1, true]) {
      const res = await ctx.admin('PATCH', path, { identityRetentionDays: bad }, 400);
      expect(res.error.code).toBe('VALIDATION_ERROR');
      expect(res.error.details.map((d: { path: string }) => d.path)).toContain('body.identityRetentionDays');
    }
    expect((await ctx.admin('PATCH', path, { identityRetentionDays: 3650 })).data).toMatchObject({ identityRetentionDays: 3650 });
    expect((await ctx.admin('PATCH', path, { identityRetentionDays: null })).data).toMatchObject({ identityRetentionDays: null });
    // The other fields are left as they were.
    expect((await ctx.admin('PATCH', path, { identityRetentionDays: 30 })).data).toMatchObject({
      plan: expect.any(String),
      reviewPolicy: 'single',
      identityRetentionDays: 30,
    });
    expect((await ctx.admin('GET', path)).data.identityRetentionDays).toBe(30);
    await ctx.admin('PATCH', '/profiles/00000000-0000-4000-8000-000000000000', { identityRetentionDays: 30 }, 404);
  });

  it('keeps decided verifications before the day, erases them after it, in batches, and never touches undecided ones or a null profile', async () => {
    const approved = await captureAll(ctx, purged.backend);
    expect((await settle(ctx, purged.backend, approved.id)).status).toBe('approved');
    const declined = await captureAll(ctx, purged.backend, { mrz: passportMrz({ breakCheckDigit: true }) });
    expect((await settle(ctx, purged.backend, declined.id)).status).toBe('declined');
    // Its document was used before: the earlier verification is approved, this one waits for a reviewer.
    const inReview = await captureIntoManualReview(ctx, purged.backend, 7301);
    const earlier = rowsOf<{ id: string }>(
      await ctx.app.db.execute(
        sql`select id from identity_verifications where profile_id = ${purged.profileId} and status = 'approved' and id <> ${approved.id}`,
      ),
    )[0]!.id;
    const capturing = await api(ctx).createVerification(purged.backend);
    const elsewhere = await captureAll(ctx, kept.backend);
    expect((await settle(ctx, kept.backend, elsewhere.id)).status).toBe('approved');
    const decided = [approved.id, declined.id, earlier];
    for (const id of [...decided, inReview.id, elsewhere.id]) expect(blobsOf(ctx, id).length).toBeGreaterThan(3);

    // An hour short of 30 days: the hourly job runs and erases nothing.
    ctx.clock.advance(30 * DAY - HOUR);
    await ctx.app.jobs.drain();
    for (const id of decided) {
      expect(await read(ctx, purged.backend, id)).toMatchObject({ erased: false, reference: 'order-42' });
      expect(blobsOf(ctx, id).length).toBeGreaterThan(3);
    }

    // Past 30 days: its next run erases all three decided ones (more than a batch of two).
    ctx.clock.advance(HOUR + 1);
    await ctx.app.jobs.drain();
    const erasedAt = ctx.clock.now().toISOString();
    expect(await read(ctx, purged.backend, approved.id)).toEqual({
      id: approved.id,
      status: 'approved',
      erased: true,
      erased_at: erasedAt,
    });
    expect(await read(ctx, purged.backend, declined.id)).toEqual({
      id: declined.id,
      status: 'declined',
      erased: true,
      erased_at: erasedAt,
    });
    expect(await read(ctx, purged.backend, earlier)).toEqual({ id: earlier, status: 'approved', erased: true, erased_at: erasedAt });
    for (const id of decided) {
      expect(blobsOf(ctx, id)).toEqual([]);
      expect(await lastAudit(ctx, id)).toEqual({ type: 'verification.erased', actor: RETENTION_ACTOR });
      const [row] = rowsOf(await ctx.app.db.execute(sql`select * from identity_verifications where id = ${id}`));
      for (const col of ['reference', 'webhook_url', 'mrz', 'document_blob', 'document_sha256', 'challenge'])
        expect(row![col], col).toBeNull();
      expect(rowsOf(await ctx.app.db.execute(sql`select id from identity_frames where verification_id = ${id}`))).toEqual([]);
    }
    // Undecided verifications of the profile, and the profile whose retention is null, keep everything.
    expect((await read(ctx, purged.backend, inReview.id)).status).toBe('manual_review');
    expect(blobsOf(ctx, inReview.id).length).toBeGreaterThan(3);
    expect(await read(ctx, purged.backend, capturing.id)).toMatchObject({ status: 'awaiting_capture', reference: 'order-42' });
    ctx.clock.advance(3650 * DAY);
    await ctx.app.jobs.drain();
    expect(await read(ctx, kept.backend, elsewhere.id)).toMatchObject({ status: 'approved', erased: false, reference: 'order-42' });
    expect(blobsOf(ctx, elsewhere.id).length).toBeGreaterThan(3);
    // A verification decided later counts from its own decision: a reviewer's, here.
    await api(ctx).call(
      'POST',
      `/v1/review/${inReview.id}`,
      purged.reviewer,
      { decision: 'approve', note: 'The holder matches the portrait on the page.' },
      200,
    );
    ctx.clock.advance(29 * DAY);
    await ctx.app.jobs.drain();
    expect(await read(ctx, purged.backend, inReview.id)).toMatchObject({ status: 'approved', erased: false, reference: 'order-42' });
    ctx.clock.advance(DAY + HOUR);
    await ctx.app.jobs.drain();
    expect(await read(ctx, purged.backend, inReview.id)).toMatchObject({ status: 'approved', erased: true });
    expect(blobsOf(ctx, inReview.id)).toEqual([]);
  });
});
