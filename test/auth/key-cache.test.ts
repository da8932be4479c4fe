import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { findPrincipal, hashApiKey } from '../../src/auth/api-keys.js';
import { keyCacheOf } from '../../src/auth/key-cache.js';
import { rowsOf } from '../../src/db/client.js';
import { usingPostgres, type TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';

/** Marks a key revoked behind the app's back: no NOTIFY, so only the cache can still accept it. */
async function revokeSilently(ctx: TestContext, keyId: string) {
  await ctx.app.db.execute(sql`update api_keys set revoked_at = now() where id = ${keyId}`);
}

describe('the key cache', () => {
  const { ctx } = useTestApp();

  it('serves a verified key from memory after the first lookup', async () => {
    const tenant = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] });
    expect(await findPrincipal(ctx.app.db, 'ticketing', tenant.key)).toMatchObject({
      keyId: tenant.keyId,
      profileId: tenant.profileId,
      scopes: ['events:read'],
    });
    await revokeSilently(ctx, tenant.keyId);
    // Still cached: the database was changed without announcing it.
    expect(await findPrincipal(ctx.app.db, 'ticketing', tenant.key)).toMatchObject({ keyId: tenant.keyId });
    // A transaction never reads the cache.
    await ctx.app.db.transaction(async (tx) => {
      expect(await findPrincipal(tx, 'ticketing', tenant.key)).toBeNull();
    });
  });

  it('refuses a key at once when it is revoked through the operator API', async () => {
    const tenant = await createTenant(ctx, { service: 'governance', scopes: ['governance:read'] });
    expect(await findPrincipal(ctx.app.db, 'governance', tenant.key)).not.toBeNull();
    await ctx.admin('DELETE', `/api-keys/${tenant.keyId}`);
    expect(await findPrincipal(ctx.app.db, 'governance', tenant.key)).toBeNull();
  });

  it('never remembers a miss: a key that appears a moment later works at once', async () => {
    const tenant = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'] });
    const key = `tk_live_${'x'.repeat(43)}`;
    expect(await findPrincipal(ctx.app.db, 'ticketing', key)).toBeNull();
    await ctx.app.db.execute(sql`
      insert into api_keys (profile_id, service, scopes, key_hash, prefix, created_at)
      values (${tenant.profileId}, 'ticketing', '{}', ${hashApiKey(key)}, 'tk_live_xxxx', now())`);
    expect(await findPrincipal(ctx.app.db, 'ticketing', key)).toMatchObject({ profileId: tenant.profileId });
  });

  it("keeps refusing another service's key even when it is cached", async () => {
    const tenant = await createTenant(ctx, { service: 'identity', role: 'backend' });
    expect(await findPrincipal(ctx.app.db, 'identity', tenant.key)).toMatchObject({ role: 'backend' });
    expect(await findPrincipal(ctx.app.db, 'ticketing', tenant.key)).toBeNull();
    expect(await findPrincipal(ctx.app.db, 'governance', tenant.key)).toBeNull();
  });

  it('sees a plan change at once', async () => {
    const tenant = await createTenant(ctx, { service: 'ticketing', scopes: ['events:read'], plan: 'FREE' });
    expect(await findPrincipal(ctx.app.db, 'ticketing', tenant.key)).toMatchObject({ plan: 'FREE' });
    await ctx.admin('PATCH', `/profiles/${tenant.profileId}`, { plan: 'ENTERPRISE' });
    expect(await findPrincipal(ctx.app.db, 'ticketing', tenant.key)).toMatchObject({ plan: 'ENTERPRISE' });
  });
});

describe.runIf(usingPostgres())('the key cache across instances (PostgreSQL)', () => {
  const { ctx: a } = useTestApp();
  const { ctx: b } = useTestApp(() => ({ shareWith: a }));

  // The NOTIFY travels through PostgreSQL to the other process's listener: allow it a moment.
  const soon = { timeout: 5_000, interval: 5 };

  it('a key revoked on instance A is refused by instance B', async () => {
    const tenant = await createTenant(a, { service: 'ticketing', scopes: ['events:read'] });
    expect(await findPrincipal(b.app.db, 'ticketing', tenant.key)).not.toBeNull();
    await a.admin('DELETE', `/api-keys/${tenant.keyId}`);
    await vi.waitFor(async () => expect(await findPrincipal(b.app.db, 'ticketing', tenant.key)).toBeNull(), soon);
  });

  it('a plan changed on instance A is seen by instance B', async () => {
    const tenant = await createTenant(a, { service: 'governance', scopes: ['governance:decide'], plan: 'PRO' });
    expect(await findPrincipal(b.app.db, 'governance', tenant.key)).toMatchObject({ plan: 'PRO' });
    await a.admin('PATCH', `/profiles/${tenant.profileId}`, { plan: 'FREE' });
    await vi.waitFor(async () => expect(await findPrincipal(b.app.db, 'governance', tenant.key)).toMatchObject({ plan: 'FREE' }), soon);
  });

  it('stops caching while its listener is disconnected, and resumes once it is back', async () => {
    const tenant = await createTenant(a, { service: 'ticketing', scopes: ['events:read'] });
    expect(await findPrincipal(b.app.db, 'ticketing', tenant.key)).not.toBeNull();
    // Kill every LISTEN connection of this database: both instances lose their listener.
    await a.app.db.execute(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`);
    await vi.waitFor(() => expect(keyCacheOf(b.app.db)!.enabled).toBe(false), soon);
    // Without a listener a silent revocation must not be masked by a stale entry.
    await revokeSilently(a, tenant.keyId);
    expect(await findPrincipal(b.app.db, 'ticketing', tenant.key)).toBeNull();

    // Both instances reconnect on their own schedules; count listeners once both are back.
    await vi.waitFor(
      () => {
        expect(keyCacheOf(a.app.db)!.enabled).toBe(true);
        expect(keyCacheOf(b.app.db)!.enabled).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
    const listeners = rowsOf(
      await a.app.db.execute(sql`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`),
    );
    expect(listeners[0]!.n).toBe(2);
  });
});

describe('PrincipalCache', () => {
  it('does not store what a lookup read before the cache was cleared', async () => {
    const { PrincipalCache } = await import('../../src/auth/key-cache.js');
    const cache = new PrincipalCache<string>(true);
    const started = cache.begin();
    cache.clear(); // a revocation arrives while the lookup is in flight
    cache.set('hash', 'stale principal', started);
    expect(cache.get('hash')).toBeUndefined();
    cache.set('hash', 'fresh principal', cache.begin());
    expect(cache.get('hash')).toBe('fresh principal');
  });

  it('forgets entries after a few seconds and stores nothing while disabled', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const { PrincipalCache } = await import('../../src/auth/key-cache.js');
      const cache = new PrincipalCache<string>(true);
      cache.set('hash', 'principal', cache.begin());
      vi.advanceTimersByTime(4_000);
      expect(cache.get('hash')).toBe('principal');
      vi.advanceTimersByTime(2_000);
      expect(cache.get('hash')).toBeUndefined();
      cache.enabled = false;
      cache.set('other', 'principal', cache.begin());
      cache.enabled = true;
      expect(cache.get('other')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
