import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { rowsOf } from '../../src/db/client.js';
import { KEY_LEASE_MS, KEY_TTL_MS, requestFingerprint } from '../../src/idempotency/key.js';
import { reserveKey } from '../../src/idempotency/repo.js';
import type { TestContext } from '../helpers/app.js';

/** One JSON call with a bearer token and, when given, an Idempotency-Key. */
export function keyedCall(
  ctx: TestContext,
  opts: { method: InjectOptions['method']; url: string; token: string; key?: string; body?: unknown },
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: opts.method,
    url: opts.url,
    headers: {
      authorization: `Bearer ${opts.token}`,
      ...(opts.key === undefined ? {} : { 'idempotency-key': opts.key }),
    },
    ...(opts.body === undefined ? {} : { payload: opts.body as InjectOptions['payload'] }),
  });
}

/** The rows a key left, whoever the caller. */
export async function keyRows(ctx: TestContext, key: string) {
  return rowsOf<{ caller: string; method: string; path: string; status: number | null }>(
    await ctx.app.db.execute(sql`select caller, method, path, status from idempotency_keys where key = ${key}`),
  );
}

/**
 * Takes a key as a request still running elsewhere would (another instance, mid-request): the
 * same caller, path and body, no answer yet.
 */
export async function holdKeyElsewhere(
  ctx: TestContext,
  scope: { caller: string; method: string; path: string; key: string },
  body: unknown,
) {
  const now = ctx.clock.now();
  const taken = await reserveKey(ctx.app.db, scope, {
    fingerprint: requestFingerprint('', Buffer.from(body === undefined ? '' : JSON.stringify(body))),
    owner: randomUUID(),
    now,
    leaseUntil: new Date(now.getTime() + KEY_LEASE_MS),
    expiresAt: new Date(now.getTime() + KEY_TTL_MS),
  });
  if (taken.outcome !== 'reserved') throw new Error(`the key was not free: ${taken.outcome}`);
}

let counter = 0;
export const newKey = (label = 'retry') => `${label}-${++counter}-${randomUUID()}`;
