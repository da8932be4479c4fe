import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';

describe('logs', () => {
  const lines: string[] = [];
  const { ctx } = useTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });

  it('carry a request id on every request line and never the Authorization header or a key', async () => {
    const profile = await ctx.admin('POST', '/profiles', { name: 'Logged', plan: 'ENTERPRISE' });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/admin/v1/api-keys',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-request-id': 'req-log-1' },
      payload: { service: 'ticketing', profileId: profile.data.id, scopes: ['events:read'] },
    });
    const key = created.json().data.key as string;
    await ctx.app.inject({ method: 'GET', url: '/api/v1/events', headers: { authorization: `Bearer ${key}` } });
    const text = lines.join('');
    expect(text).toContain('req-log-1');
    expect(text).not.toContain(ADMIN_TOKEN);
    expect(text).not.toContain(key);
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines) expect(line.reqId).toEqual(expect.any(String));
  });
});
