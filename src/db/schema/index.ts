// Every table group of the process. drizzle-kit reads this file to generate migrations/.
export * from './core.js';
export * from './jobs.js';
export * from './webhooks.js';
export * from './signing-keys.js';
export * from './ticketing.js';
export * from './identity.js';
export * from './governance.js';
export * from './idempotency.js';
