import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { useTestApp } from '../helpers/suite.js';

describe('readiness and migrations', () => {
  const { ctx } = useTestApp();

  it('is not ready while the database lacks a migration this build ships, and is again once it has it', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const [last] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await ctx.app.db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1`),
    );
    await ctx.app.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last!.id}`);
    const res = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', database: 'migrations pending' });
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    await ctx.app.db.execute(
      sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last!.id}, ${last!.hash}, ${last!.created_at})`,
    );
    expect((await ctx.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});
