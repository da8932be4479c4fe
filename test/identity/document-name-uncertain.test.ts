import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import type { DocumentReader, ReadResult } from '../../src/recognition/document/reader.js';
import { pipelineHandler } from '../../src/identity/pipeline/run.js';
import { silentMeter } from '../../src/metrics/meter.js';
import type { TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, captureAll, HIGH_LIMITS, identityTenant, passportMrz } from '../helpers/identity.js';

/**
 * A zone read with a name the engines did not agree on (docs/document-reading.md, the certainty
 * rule, 3): the zone stands for the dated claims, the reviewer's case view shows
 * `signals.mrz_name_uncertain: true`, and a typed zone that differs in that name goes to review,
 * never declined. The pipeline runs here with a reader that answers a given reading (the OCR's own
 * tests are test/recognition and test/identity/document-reading.test.ts).
 */

const TYPED = passportMrz();
/** The zone as read: the typed one with the given name MARIA read as MARLA. */
const READ = { format: 'TD3' as const, lines: TYPED.replace('JANE<MARIA', 'JANE<MARLA').split('\n') };

function readerAnswering(result: ReadResult): DocumentReader {
  return {
    start() {},
    read: async () => result,
    readCard: async () => ({ ...result, sides: null }),
    close: async () => {},
  };
}

function run(ctx: TestContext, id: string, result: ReadResult) {
  const { app } = ctx;
  const handler = pipelineHandler({
    db: app.db,
    clock: app.clock,
    dataKeys: app.dataKeys,
    blobs: app.blobs,
    webhooks: app.webhooks,
    logger: app.log,
    documents: readerAnswering(result),
    meter: silentMeter,
  });
  return handler({ id, queue: 'identity.pipeline', payload: { verificationId: id }, attempt: 1 });
}

async function stored(ctx: TestContext, id: string) {
  const [row] = rowsOf<{ status: string; decision_reason: string | null; signals: Record<string, unknown> | null }>(
    await ctx.app.db.execute(sql`select status, decision_reason, signals from identity_verifications where id = ${id}`),
  );
  return row!;
}

describe('identity pipeline: a zone read with an uncertain name (signal mrz_name_uncertain)', () => {
  const { ctx, tenant } = useTestApp({ env: HIGH_LIMITS }, { tenant: identityTenant });

  it('sends a typed zone that differs only in the uncertain name to review, and the case view shows the signal', async () => {
    const { id } = await captureAll(ctx, tenant.backend, { mrz: TYPED });
    await run(ctx, id, { zone: READ, text: READ.lines.join('\n'), nameUncertain: true });
    const view = (await api(ctx).call('GET', `/v1/review/${id}`, tenant.reviewer, undefined, 200)).json();
    expect(view).toMatchObject({ status: 'manual_review', reason: 'mrz_mismatch', signals: { mrz_name_uncertain: true } });
  });

  it('declines the same difference in a name the reading called certain, and writes no signal', async () => {
    const { id } = await captureAll(ctx, tenant.backend, { mrz: TYPED });
    await run(ctx, id, { zone: READ, text: READ.lines.join('\n') });
    const row = await stored(ctx, id);
    expect(row).toMatchObject({ status: 'declined', decision_reason: 'mrz_mismatch' });
    expect(row.signals ?? {}).not.toHaveProperty('mrz_name_uncertain');
  });

  it('keeps a zone read with an uncertain name when no zone was typed (the hosted page), with the signal', async () => {
    const { id } = await captureAll(ctx, tenant.backend, { mrz: null });
    await run(ctx, id, { zone: READ, text: READ.lines.join('\n'), nameUncertain: true });
    const row = await stored(ctx, id);
    expect(row.status).not.toBe('declined');
    expect(row.signals).toMatchObject({ mrz_name_uncertain: true });
  });
});
