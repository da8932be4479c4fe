import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import type { Resolver } from '../../src/webhooks/ssrf.js';
import type { TestContext } from '../helpers/app.js';
import { useTestApp } from '../helpers/suite.js';
import { api, identityTenant } from '../helpers/identity.js';

/** DNS for these tests: one public name, one internal, one pointing at both; the rest does not resolve. */
const resolve: Resolver = async (host) => {
  const answers: Record<string, { address: string; family: number }[]> = {
    'hooks.partner.test': [{ address: '93.184.215.14', family: 4 }],
    'internal.partner.test': [{ address: '10.0.0.5', family: 4 }],
    'mixed.partner.test': [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
  };
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

async function verificationCount(ctx: TestContext, profileId: string): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await ctx.app.db.execute(sql`select count(*)::int as n from identity_verifications where profile_id = ${profileId}`),
  );
  return rows[0]!.n;
}

describe('webhook_url is checked when the verification is created', () => {
  const { ctx, tenant } = useTestApp(
    { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }, webhooks: { resolve } },
    { tenant: identityTenant },
  );

  const refused: [string, string, RegExp][] = [
    ['a loopback address', 'https://127.0.0.1/hook', /webhook_url .*127\.0\.0\.1.*loopback.*public addresses/],
    ['an IPv6 loopback address', 'https://[::1]/hook', /webhook_url .*::1.*public addresses/],
    ['a name resolving to a private address', 'https://internal.partner.test/hook', /webhook_url .*10\.0\.0\.5.*public addresses/],
    ['a name resolving to a public and a loopback address', 'https://mixed.partner.test/hook', /webhook_url .*127\.0\.0\.1/],
    ['a host that does not resolve', 'https://nowhere.invalid/hook', /webhook_url host nowhere\.invalid could not be resolved/],
    ['a placeholder left in', 'https://hooks.partner.test/<your-id>', /webhook_url must not contain .*placeholder/],
    ['credentials', 'https://user:pw@hooks.partner.test/hook', /webhook_url must not carry credentials/],
    ['plain http', 'http://hooks.partner.test/hook', /HTTPS/],
  ];
  for (const [name, url, detail] of refused) {
    it(`refuses ${name} with 422 {detail} naming the rule, and creates nothing`, async () => {
      const before = await verificationCount(ctx, tenant.profileId);
      const res = await api(ctx).call('POST', '/v1/verifications', tenant.backend, { webhook_url: url, reference: 'r' }, 422);
      expect(Object.keys(res.json())).toEqual(['detail']);
      expect(res.json().detail).toMatch(detail);
      expect(await verificationCount(ctx, tenant.profileId)).toBe(before);
    });
  }

  it('accepts an https URL whose host resolves to public addresses only', async () => {
    const v = await api(ctx).createVerification(tenant.backend, { webhook_url: 'https://hooks.partner.test/idv?x=1', reference: 'ok' });
    expect(v.webhook_url).toBe('https://hooks.partner.test/idv?x=1');
  });
});

describe('return_url is checked like webhook_url and echoed where the verification is read', () => {
  const { ctx, tenant } = useTestApp(
    { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }, webhooks: { resolve } },
    { tenant: identityTenant },
  );
  const hook = 'https://hooks.partner.test/idv';

  const refused: [string, string, RegExp][] = [
    ['plain http', 'http://hooks.partner.test/done', /return_url: return_url must be an HTTPS address/],
    ['not a URL', 'back to the shop', /return_url: return_url must be an HTTPS address/],
    ['a loopback address', 'https://127.0.0.1/done', /^return_url .*127\.0\.0\.1.*public addresses/],
    ['a name resolving to a private address', 'https://internal.partner.test/done', /^return_url .*10\.0\.0\.5/],
    ['a host that does not resolve', 'https://nowhere.invalid/done', /^return_url host nowhere\.invalid could not be resolved/],
    ['credentials', 'https://user:pw@hooks.partner.test/done', /^return_url must not carry credentials/],
  ];
  for (const [name, url, detail] of refused) {
    it(`refuses ${name} with 422 {detail} naming return_url, and creates nothing`, async () => {
      const before = await verificationCount(ctx, tenant.profileId);
      const res = await api(ctx).call('POST', '/v1/verifications', tenant.backend, { webhook_url: hook, return_url: url }, 422);
      expect(Object.keys(res.json())).toEqual(['detail']);
      expect(res.json().detail).toMatch(detail);
      expect(await verificationCount(ctx, tenant.profileId)).toBe(before);
    });
  }

  it('keeps an https return_url and shows it on creation, on GET, in the capture status; erasure nulls it', async () => {
    const a = api(ctx);
    const returnUrl = 'https://hooks.partner.test/orders/42?verified=1';
    const v = await a.createVerification(tenant.backend, { webhook_url: hook, return_url: returnUrl });
    expect(v.return_url).toBe(returnUrl);
    const read = (await a.call('GET', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200)).json();
    expect(read.return_url).toBe(returnUrl);
    const status = (await a.status(v.handoff_token)).json();
    expect(status.return_url).toBe(returnUrl);
    expect(status.requester.name).toMatch(/^Tenant /);

    await a.call('DELETE', `/v1/verifications/${v.id}`, tenant.backend, undefined, 200);
    const rows = rowsOf<{ return_url: string | null }>(
      await ctx.app.db.execute(sql`select return_url from identity_verifications where id = ${v.id}`),
    );
    expect(rows[0]!.return_url).toBeNull();
  });

  it('null or absent: no return_url, and the capture status says null', async () => {
    const a = api(ctx);
    const v = await a.createVerification(tenant.backend, { webhook_url: hook, return_url: null });
    expect(v.return_url).toBeNull();
    expect((await a.status(v.handoff_token)).json().return_url).toBeNull();
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true', () => {
  const { ctx, tenant } = useTestApp(
    { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, webhooks: { resolve } },
    { tenant: identityTenant },
  );

  it('accepts private addresses but still refuses a host that does not resolve', async () => {
    await api(ctx).createVerification(tenant.backend, { webhook_url: 'https://127.0.0.1:8443/hook' });
    await api(ctx).createVerification(tenant.backend, { webhook_url: 'https://internal.partner.test/hook' });
    const res = await api(ctx).call('POST', '/v1/verifications', tenant.backend, { webhook_url: 'https://nowhere.invalid/hook' }, 422);
    expect(res.json().detail).toMatch(/could not be resolved/);
  });
});
