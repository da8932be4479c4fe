import { sql } from 'drizzle-orm';
import type { TestContext } from './app.js';
import { rowsOf } from '../../src/db/client.js';

/** Short schedule for tests: 4 attempts, 1 s, 2 s, 3 s apart (plus up to 20 % jitter). */
export const TEST_DELAYS = '1000,2000,3000';

/** Publishes one event in its own transaction, as a service would with its change. */
export async function publish(ctx: TestContext, profileId: string, type = 'order.paid', data: unknown = { id: 'o1', status: 'CONFIRMED' }) {
  return ctx.app.db.transaction((tx) => ctx.app.webhooks.publish(tx, { profileId, type, data }));
}

/** Moves the clock past the next scheduled attempt and runs what is due. */
export async function later(ctx: TestContext, ms: number): Promise<void> {
  ctx.clock.advance(ms);
  await ctx.app.jobs.drain();
}

export async function newProfile(ctx: TestContext): Promise<string> {
  const res = await ctx.admin('POST', '/profiles', { name: 'Webhook tenant', plan: 'ENTERPRISE' });
  return res.data.id;
}

export async function register(ctx: TestContext, profileId: string, url: string, events?: string[]) {
  const res = await ctx.admin('POST', `/profiles/${profileId}/webhook-endpoints`, { url, ...(events ? { events } : {}) }, 201);
  return res.data as { id: string; url: string; events: string[]; secret: string };
}

export async function deliveriesOf(ctx: TestContext, query: string) {
  const res = await ctx.admin('GET', `/webhook-deliveries?${query}`);
  return res.data.items as any[];
}

export async function count(ctx: TestContext, table: string): Promise<number> {
  const rows = rowsOf<{ n: string }>(await ctx.app.db.execute(sql.raw(`select count(*)::text as n from ${table}`)));
  return Number(rows[0]!.n);
}

/** Runs every attempt of the TEST_DELAYS schedule (4 attempts), whatever the jitter. */
export async function runSchedule(ctx: TestContext): Promise<void> {
  await ctx.app.jobs.drain();
  for (const wait of [1200, 2400, 3600]) await later(ctx, wait);
}
