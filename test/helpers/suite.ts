import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestAppOptions, type TestContext } from './app.js';

export interface Placeholder<T extends object> {
  /** Stands for the value: reads, writes, `in` and spreads go through to it once it is filled. */
  readonly value: T;
  fill(value: T): void;
  /** The value itself, or undefined while a hook has not made it (an afterAll after a failed beforeAll). */
  filled(): T | undefined;
}

/**
 * A value a beforeAll makes, named before it exists: a describe block names its app, tenants and
 * receivers once at its top and its tests use them as the values themselves. Going through a
 * proxy (not copying the value's members) keeps getters and the value's own writes live, as a
 * receiver's connection count and `fallback` need.
 */
export function placeholder<T extends object>(what: string): Placeholder<T> {
  let target: T | undefined;
  const real = (): T => {
    if (target === undefined) throw new Error(`${what} is used before the beforeAll that makes it has run`);
    return target;
  };
  const value = new Proxy({} as T, {
    // Unfilled, answer the probes of `await` and of printers instead of failing them.
    get: (_, key) => (target === undefined && (typeof key === 'symbol' || key === 'then') ? undefined : Reflect.get(real(), key)),
    set: (_, key, v) => Reflect.set(real(), key, v),
    has: (_, key) => Reflect.has(real(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // A proxy may not call a member non-configurable that its own (empty) target lacks.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return {
    value,
    fill: (v) => void (target = v),
    filled: () => target,
  };
}

/** How each tenant of a suite is made, by name: `organizer`, `identityTenant`, `governedTenant`, … */
export type TenantMakers<T extends Record<string, object>> = { [K in keyof T]: (ctx: TestContext) => Promise<T[K]> };

/**
 * The app of one describe block and the tenants its tests share: a beforeAll builds the app and
 * then each tenant, in the order given; an afterAll closes the app (after the afterAlls the block
 * registers later, which vitest runs first). `options` is a function where they depend on what an
 * earlier hook made: a receiver's certificate, a first instance to share the store with.
 *
 *   const { ctx, org, other } = useTestApp({ env: HIGH_LIMITS }, { org: organizer, other: organizer });
 */
export function useTestApp<T extends Record<string, object> = Record<never, never>>(
  options: TestAppOptions | (() => TestAppOptions) = {},
  tenants?: TenantMakers<T>,
): { ctx: TestContext } & T {
  const app = placeholder<TestContext>('the test app');
  const made = Object.entries<(ctx: TestContext) => Promise<object>>(tenants ?? {}).map(([name, make]) => ({
    name,
    make,
    tenant: placeholder<object>(`the tenant ${name}`),
  }));
  beforeAll(async () => {
    const ctx = await buildTestApp(typeof options === 'function' ? options() : options);
    app.fill(ctx);
    for (const { make, tenant } of made) tenant.fill(await make(ctx));
  });
  afterAll(async () => {
    await app.filled()?.close();
  });
  return Object.fromEntries([['ctx', app.value], ...made.map(({ name, tenant }) => [name, tenant.value])]) as { ctx: TestContext } & T;
}
