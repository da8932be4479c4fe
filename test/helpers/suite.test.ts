import { describe, expect, it } from 'vitest';
import type { TestContext } from './app.js';
import { placeholder, useTestApp } from './suite.js';

describe('placeholder', () => {
  it('names what is missing when read before its beforeAll filled it', () => {
    const tenant = placeholder<{ key: string }>('the tenant org');
    expect(() => tenant.value.key).toThrow('the tenant org is used before the beforeAll that makes it has run');
    expect(tenant.filled()).toBeUndefined();
  });

  it('can be awaited and printed while empty', async () => {
    const app = placeholder<{ port: number }>('the app');
    expect((app.value as { then?: unknown }).then).toBeUndefined();
    expect((app.value as Record<symbol, unknown>)[Symbol.toPrimitive]).toBeUndefined();
  });

  it('reads, writes, spreads and `in` go through to the value, getters stay live', () => {
    let connections = 0;
    const value = { fallback: 200 as number | 'hang', key: 'k-1' };
    Object.defineProperty(value, 'connections', { get: () => connections, enumerable: true });
    const receiver = placeholder<typeof value & { connections?: number }>('the receiver');
    receiver.fill(value);

    expect(receiver.value.key).toBe('k-1');
    connections = 3;
    expect(receiver.value.connections).toBe(3);
    receiver.value.fallback = 'hang';
    expect(value.fallback).toBe('hang');
    expect({ ...receiver.value }).toEqual({ fallback: 'hang', key: 'k-1', connections: 3 });
    expect('key' in receiver.value).toBe(true);
    expect('missing' in receiver.value).toBe(false);
    expect(receiver.filled()).toBe(value);
  });
});

describe('useTestApp', () => {
  const madeWith: TestContext[] = [];
  const order: string[] = [];
  const maker = (name: string) => async (ctx: TestContext) => {
    madeWith.push(ctx);
    order.push(name);
    return { name, profiles: (await ctx.admin('GET', '/profiles')).data.items.length as number };
  };
  const { ctx, first, second } = useTestApp({}, { first: maker('first'), second: maker('second') });

  it('builds the app before the tenants, then makes them in the order given', async () => {
    expect(order).toEqual(['first', 'second']);
    expect(first).toEqual({ name: 'first', profiles: 0 });
    expect(second.name).toBe('second');
    expect((await ctx.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('hands the makers the app the tests see', () => {
    expect(madeWith).toHaveLength(2);
    for (const made of madeWith) expect(made.app).toBe(ctx.app);
  });
});
