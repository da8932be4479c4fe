import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('fills the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
      TICKETING_RATE_LIMIT_PER_MINUTE: 120,
      CAPTURE_RATE_LIMIT_PER_MINUTE: 40,
      IDENTITY_RATE_LIMIT_PER_MINUTE: 240,
      GOVERNANCE_RATE_LIMIT_PER_MINUTE: 600,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_TOKEN).toBeUndefined();
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '10, 20,30', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    expect(config.WEBHOOK_RETRY_DELAYS_MS).toEqual([10, 20, 30]);
    expect(config.WEBHOOK_ALLOW_PRIVATE_NETWORKS).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['WEBHOOK_RETRY_DELAYS_MS', '1,,2'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'yes'],
    ['GOVERNANCE_SIGNING_KEY', 'c2hvcnQ='],
    ['TICKETING_RATE_LIMIT_PER_MINUTE', '0'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_TOKEN', 'short'],
  ])('a bad %s stops with one line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as Error).message).toContain(name);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
