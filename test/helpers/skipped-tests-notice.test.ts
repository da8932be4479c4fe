import { describe, expect, it } from 'vitest';
import { announceSkippedTests } from './global-setup.js';

describe('the notice npm test prints once about the tests it skips', () => {
  const noticeFor = (env: NodeJS.ProcessEnv) => {
    let out = '';
    announceSkippedTests(env, (line) => (out += line));
    return out;
  };

  it('names PostgreSQL and Redis, and how to run their tests, when neither is configured', () => {
    const notice = noticeFor({});
    expect(notice).toMatch(/skips the tests that need:\s+- PostgreSQL \(DATABASE_URL=postgres:\/\/…\)/);
    expect(notice).toContain('- Redis (REDIS_URL=redis://…)');
    expect(notice).toContain('DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm test');
  });

  it('names only what is missing, and says nothing when both are set', () => {
    expect(noticeFor({ DATABASE_URL: 'postgres://x/y' })).not.toContain('- PostgreSQL');
    expect(noticeFor({ DATABASE_URL: 'postgres://x/y' })).toContain('- Redis');
    expect(noticeFor({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://z', TEST_EVERYTHING_ON_POSTGRES: '1' })).toBe('');
  });

  it('says, on PostgreSQL, which tests the embedded run covers and how to run them here too', () => {
    const notice = noticeFor({ DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://z' });
    expect(notice).toContain('On PostgreSQL this run leaves out the tests whose subject never meets the store');
    expect(notice).toContain('TEST_EVERYTHING_ON_POSTGRES=1');
    expect(noticeFor({})).not.toContain('On PostgreSQL');
  });
});
