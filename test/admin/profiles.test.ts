import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { keyUseRecorderOf } from '../../src/auth/key-usage.js';
import { configFrom } from '../../src/config.js';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';

describe('operator API: profiles, venues, API keys', () => {
  const { ctx } = useTestApp();

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token = ADMIN_TOKEN) =>
    ctx.app.inject({ method, url: `/admin/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

  it('refuses a missing or wrong operator token with 401 in the envelope', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/admin/v1/profiles', payload: { name: 'x', plan: 'FREE' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect((await call('POST', '/profiles', { name: 'x', plan: 'FREE' }, 'wrong-token-xxxxxxxxxxxx')).statusCode).toBe(401);
  });

  it('creates, reads and changes a profile', async () => {
    const created = await call('POST', '/profiles', { name: 'Night Owl Events', plan: 'ENTERPRISE' });
    expect(created.statusCode).toBe(201);
    const profile = created.json().data;
    expect(profile).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Night Owl Events',
      plan: 'ENTERPRISE',
      reviewPolicy: 'single',
      identityRetentionDays: null,
      privacyPolicyUrl: null,
    });
    const patched = await call('PATCH', `/profiles/${profile.id}`, { plan: 'PRO' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toEqual({ ...profile, plan: 'PRO' });
    expect((await call('GET', `/profiles/${profile.id}`)).json().data.plan).toBe('PRO');
  });

  it('answers bad bodies with VALIDATION_ERROR details and unknown ids with 404', async () => {
    const bad = await call('POST', '/profiles', { name: '', plan: 'GOLD' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.name', 'body.plan']);
    expect((await call('PATCH', '/profiles/not-a-uuid', { plan: 'PRO' })).statusCode).toBe(404);
    expect((await call('PATCH', '/profiles/00000000-0000-4000-8000-000000000000', { plan: 'PRO' })).statusCode).toBe(404);
    expect(
      (await call('POST', '/profiles/00000000-0000-4000-8000-000000000000/venues', { name: 'v', address: 'a', lat: 1, lng: 2 })).statusCode,
    ).toBe(404);
  });

  it('creates venues with validated coordinates and time zone', async () => {
    const profile = (await call('POST', '/profiles', { name: 'Venue owner', plan: 'ENTERPRISE' })).json().data;
    const venue = await call('POST', `/profiles/${profile.id}/venues`, {
      name: 'Hall',
      address: '1 Main St',
      city: 'Berlin',
      lat: 52.5,
      lng: 13.4,
      timezone: 'Europe/Berlin',
    });
    expect(venue.statusCode).toBe(201);
    expect(venue.json().data).toMatchObject({ profileId: profile.id, name: 'Hall', city: 'Berlin', timezone: 'Europe/Berlin' });
    const bad = await call('POST', `/profiles/${profile.id}/venues`, {
      name: 'Hall',
      address: 'x',
      lat: 91,
      lng: 181,
      timezone: 'Mars/Olympus',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toHaveLength(3);
  });

  it("lists a profile's venues and edits one, validated as on create; another profile's venue is not found", async () => {
    const owner = (await call('POST', '/profiles', { name: 'Venue editor', plan: 'PRO' })).json().data;
    const other = (await call('POST', '/profiles', { name: 'Someone else', plan: 'PRO' })).json().data;
    expect((await call('GET', `/profiles/${owner.id}/venues`)).json().data).toEqual({ items: [] });
    const hall = (
      await call('POST', `/profiles/${owner.id}/venues`, { name: 'Hall', address: '1 Main St', city: 'Berlin', lat: 52.5, lng: 13.4 })
    ).json().data;
    const elsewhere = (await call('POST', `/profiles/${other.id}/venues`, { name: 'Barn', address: 'Farm 2', lat: 1, lng: 2 })).json().data;

    // Only the fields given change; null clears the city; the rest is as it was.
    const edited = await call('PATCH', `/profiles/${owner.id}/venues/${hall.id}`, {
      name: 'Great Hall',
      city: null,
      timezone: 'Europe/Berlin',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toEqual({ ...hall, name: 'Great Hall', city: null, timezone: 'Europe/Berlin' });
    expect((await call('GET', `/profiles/${owner.id}/venues`)).json().data.items).toEqual([edited.json().data]);

    // Validation as on create, every field named; nothing is changed by a refused edit.
    const bad = await call('PATCH', `/profiles/${owner.id}/venues/${hall.id}`, { name: '', lat: 91, lng: -181, timezone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    expect(
      bad
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.lat', 'body.lng', 'body.name', 'body.timezone']);
    expect((await call('PATCH', `/profiles/${owner.id}/venues/${hall.id}`, {})).statusCode).toBe(400);
    expect((await call('PATCH', `/profiles/${owner.id}/venues/${hall.id}`, { capacity: 10 })).statusCode).toBe(400);
    expect((await call('GET', `/profiles/${owner.id}/venues`)).json().data.items).toEqual([edited.json().data]);

    // Another profile's venue, an unknown one, a malformed id, an unknown profile: 404, and the other venue is untouched.
    for (const url of [
      `/profiles/${owner.id}/venues/${elsewhere.id}`,
      `/profiles/${owner.id}/venues/00000000-0000-4000-8000-000000000000`,
      `/profiles/${owner.id}/venues/not-a-uuid`,
      `/profiles/00000000-0000-4000-8000-000000000000/venues/${hall.id}`,
    ]) {
      const res = await call('PATCH', url, { name: 'Taken' });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await call('GET', `/profiles/${other.id}/venues`)).json().data.items).toEqual([elsewhere]);
    expect((await call('GET', '/profiles/00000000-0000-4000-8000-000000000000/venues')).statusCode).toBe(404);
  });

  it('issues keys shown once, stored only as a hash, and revokes them', async () => {
    const profile = (await call('POST', '/profiles', { name: 'Keys', plan: 'ENTERPRISE' })).json().data;
    const res = await call('POST', '/api-keys', { service: 'ticketing', profileId: profile.id, scopes: ['events:read'] });
    expect(res.statusCode).toBe(201);
    const key = res.json().data;
    expect(key.key).toMatch(/^tk_live_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({ service: 'ticketing', profileId: profile.id, scopes: ['events:read'] });
    const stored = await ctx.app.db.execute(sql`select * from api_keys where id = ${key.id}`);
    expect(JSON.stringify(stored)).not.toContain(key.key);
    const listed = (await call('GET', `/api-keys?profileId=${profile.id}`)).json().data.items;
    expect(listed).toHaveLength(1);
    expect(listed[0].key).toBeUndefined();
    // profileId is an optional filter, as on GET /admin/v1/webhook-deliveries.
    const other = (await call('POST', '/profiles', { name: 'Other keys', plan: 'FREE' })).json().data;
    const otherKey = (await call('POST', '/api-keys', { service: 'ticketing', profileId: other.id, scopes: ['events:read'] })).json().data;
    const everyKey = (await call('GET', '/api-keys')).json().data.items.map((k: { id: string }) => k.id);
    expect(everyKey).toEqual(expect.arrayContaining([key.id, otherKey.id]));
    expect((await call('GET', `/api-keys?profileId=${other.id}`)).json().data.items.map((k: { id: string }) => k.id)).toEqual([
      otherKey.id,
    ]);
    expect((await call('GET', '/api-keys?profileId=nope')).statusCode).toBe(400);
    const identity = (await call('POST', '/api-keys', { service: 'identity', profileId: profile.id, role: 'reviewer' })).json().data;
    expect(identity).toMatchObject({ role: 'reviewer', service: 'identity' });
    expect(identity.key).toMatch(/^idv_live_/);
    const revoked = await call('DELETE', `/api-keys/${key.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.revokedAt).toEqual(expect.any(String));
    expect((await call('DELETE', '/api-keys/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('names keys, shows their prefix and last four characters, and records their last use at most once a minute', async () => {
    const profile = (await call('POST', '/profiles', { name: 'Named keys', plan: 'ENTERPRISE' })).json().data;
    const created = await call('POST', '/api-keys', {
      service: 'ticketing',
      profileId: profile.id,
      scopes: ['events:read'],
      name: ' Box office ',
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect(key).toMatchObject({
      name: 'Box office',
      prefix: key.key.slice(0, 'tk_live_'.length + 4),
      last4: key.key.slice(-4),
      createdAt: ctx.clock.now().toISOString(),
      lastUsedAt: null,
    });
    const unnamed = (await call('POST', '/api-keys', { service: 'identity', profileId: profile.id, role: 'reviewer' })).json().data;
    expect(unnamed).toMatchObject({ name: null, prefix: unnamed.key.slice(0, 'idv_live_'.length + 4), lastUsedAt: null });
    for (const name of ['', '   ', 'x'.repeat(81), 7]) {
      const bad = await call('POST', '/api-keys', { service: 'identity', profileId: profile.id, role: 'reviewer', name });
      expect(bad.statusCode, JSON.stringify(name)).toBe(400);
      expect(bad.json().error.details.map((d: { path: string }) => d.path)).toEqual(['body.name']);
    }

    const lastUsed = async () => {
      await keyUseRecorderOf(ctx.app.db)!.settle();
      const items = (await call('GET', `/api-keys?profileId=${profile.id}`)).json().data.items as {
        id: string;
        lastUsedAt: string | null;
      }[];
      return items.find((k) => k.id === key.id)!.lastUsedAt;
    };
    const use = async () =>
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/v1/events', headers: { authorization: `Bearer ${key.key}` } })).statusCode,
      ).toBe(200);
    // A wrong key is not a use of anyone's key.
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/events', headers: { authorization: 'Bearer tk_live_wrong' } })).statusCode,
    ).toBe(401);
    expect(await lastUsed()).toBeNull();
    const first = ctx.clock.now().toISOString();
    await use();
    expect(await lastUsed()).toBe(first);
    // Within the minute no further write: the time may lag.
    ctx.clock.advance(30_000);
    await use();
    expect(await lastUsed()).toBe(first);
    ctx.clock.advance(31_000);
    const later = ctx.clock.now().toISOString();
    await use();
    expect(await lastUsed()).toBe(later);
    // The unused key stays null; the list keeps its secret out.
    const listed = (await call('GET', `/api-keys?profileId=${profile.id}`)).json().data.items;
    expect(listed.find((k: { id: string }) => k.id === unnamed.id).lastUsedAt).toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key.key);
  });

  it('gives a reviewer key a holder (1–80 characters), shown in every key view; refuses it elsewhere with 400', async () => {
    const profile = (await call('POST', '/profiles', { name: 'Holders', plan: 'ENTERPRISE' })).json().data;
    const identityKey = (fields: object) =>
      call('POST', '/api-keys', { service: 'identity', profileId: profile.id, role: 'reviewer', ...fields });
    const created = await identityKey({ holder: ' Dana Adeyemi ' });
    expect(created.statusCode).toBe(201);
    const key = created.json().data;
    expect(key).toMatchObject({ holder: 'Dana Adeyemi', name: null, role: 'reviewer' });
    const plain = (await identityKey({})).json().data;
    expect(plain.holder).toBeNull();
    // Both keys have the same creation time (the test clock stands still): read each by its id.
    const listed = (await call('GET', `/api-keys?profileId=${profile.id}`)).json().data.items as { id: string; holder: string | null }[];
    expect(Object.fromEntries(listed.map((k) => [k.id, k.holder]))).toEqual({ [key.id]: 'Dana Adeyemi', [plain.id]: null });
    expect((await call('DELETE', `/api-keys/${key.id}`)).json().data).toMatchObject({ id: key.id, holder: 'Dana Adeyemi' });

    for (const holder of ['', '   ', 'x'.repeat(81), 7]) {
      const bad = await identityKey({ holder });
      expect(bad.statusCode, JSON.stringify(holder)).toBe(400);
      expect(bad.json().error.details.map((d: { path: string }) => d.path)).toEqual(['body.holder']);
    }
    expect((await identityKey({ holder: 'x'.repeat(80) })).statusCode).toBe(201);
    // A holder says who counts as which reviewer: a backend key, or a key of another service, has none.
    const backend = await identityKey({ role: 'backend', holder: 'Dana Adeyemi' });
    expect(backend.statusCode).toBe(400);
    expect(backend.json().error.details).toEqual([{ path: 'body.holder', message: expect.stringContaining('reviewer key only') }]);
    const ticketing = await call('POST', '/api-keys', {
      service: 'ticketing',
      profileId: profile.id,
      scopes: ['events:read'],
      holder: 'Dana',
    });
    expect(ticketing.statusCode).toBe(400);
  });

  it('refuses keys with unknown scopes, roles or profiles', async () => {
    const profile = (await call('POST', '/profiles', { name: 'Scopes', plan: 'ENTERPRISE' })).json().data;
    expect((await call('POST', '/api-keys', { service: 'ticketing', profileId: profile.id, scopes: ['events:delete'] })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/api-keys', { service: 'identity', profileId: profile.id, role: 'admin' })).statusCode).toBe(400);
    expect((await call('POST', '/api-keys', { service: 'governance', profileId: profile.id, scopes: [] })).statusCode).toBe(400);
    expect(
      (
        await call('POST', '/api-keys', {
          service: 'ticketing',
          profileId: '00000000-0000-4000-8000-000000000000',
          scopes: ['events:read'],
        })
      ).statusCode,
    ).toBe(404);
  });

  it('does not exist at all without ADMIN_TOKEN', async () => {
    const app = await buildApp(configFrom({ DATABASE_URL: ctx.env.DATABASE_URL, DATA_DIR: ctx.env.DATA_DIR, LOG_LEVEL: 'silent' }), {
      startJobs: false,
      logger: false,
    });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/admin/v1/profiles',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'x', plan: 'FREE' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      // The answer says why, and how to turn it on, for any path, method or body.
      for (const request of [
        { method: 'GET', url: '/admin/v1/profiles' },
        { method: 'GET', url: '/admin/v1' },
        { method: 'POST', url: '/admin/v1/nowhere', headers: { 'content-type': 'application/json' }, payload: '{' },
      ] as const) {
        const other = await app.inject(request);
        expect(other.statusCode).toBe(404);
        expect(other.json()).toEqual({
          success: false,
          error: { code: 'NOT_FOUND', message: expect.stringMatching(/operator API is disabled.*set ADMIN_TOKEN/) },
        });
      }
      expect(res.json().error.message).toMatch(/operator API is disabled.*set ADMIN_TOKEN.*restart/);
    } finally {
      await app.close();
    }
  });
});
