import { describe, expect, it } from 'vitest';
import { checkTarget, WebhookTargetError, type Resolver } from '../../src/webhooks/ssrf.js';
import { createConnectionPool, postWebhook } from '../../src/webhooks/transport.js';
import { useTestApp } from '../helpers/suite.js';
import { makeCertificate, startReceiver, useCertificate, useReceiver } from '../helpers/receivers.js';
import { deliveriesOf, newProfile, publish, register } from '../helpers/webhooks.js';

/** A DNS whose answers the test changes while the app runs. */
const dns = new Map<string, string[]>();
const resolve: Resolver = async (host) => {
  const answer = dns.get(host);
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('SSRF guard with private networks refused (the production setting)', () => {
  const cert = useCertificate();
  const receiver = useReceiver(cert);
  const { ctx } = useTestApp(() => ({
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_DELAYS_MS: '1000' },
    webhooks: { ca: cert.cert, resolve },
  }));

  it('refuses private, loopback, link-local, metadata and mixed targets at registration', async () => {
    dns.set('metadata.example.test', ['169.254.169.254']);
    dns.set('mixed.example.test', ['8.8.8.8', '10.0.0.7']);
    dns.set('v6.example.test', ['fd00::1']);
    const profileId = await newProfile(ctx);
    const refused = {
      [receiver.url()]: 'loopback',
      'https://[::1]/hook': 'loopback',
      'https://[::ffff:127.0.0.1]/hook': 'loopback',
      'https://[::ffff:a9fe:a9fe]/hook': 'cloud metadata',
      'https://169.254.169.254/latest/meta-data': 'cloud metadata',
      'https://10.1.2.3/hook': 'private',
      'https://100.64.0.9/hook': 'carrier-grade NAT',
      'https://metadata.example.test/hook': 'cloud metadata',
      'https://mixed.example.test/hook': 'private',
      'https://v6.example.test/hook': 'unique-local',
      'https://nowhere.example.test/hook': 'could not be resolved',
    };
    for (const [url, reason] of Object.entries(refused)) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/profiles/${profileId}/webhook-endpoints`,
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details[0]).toEqual({ path: 'body.url', message: expect.stringContaining(reason) });
    }
  });

  it('checks again at every delivery: a name rebound to a private address after registration is not called', async () => {
    dns.set('rebind.example.test', ['93.184.216.34']);
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, `https://rebind.example.test:${receiver.port}/rebind`);
    dns.set('rebind.example.test', ['127.0.0.1']);
    await publish(ctx, profileId);
    await ctx.app.jobs.drain();
    const [delivery] = await deliveriesOf(ctx, `endpointId=${endpoint.id}`);
    expect(delivery).toMatchObject({
      state: 'pending',
      lastStatusCode: null,
      lastError: expect.stringContaining('refused: resolves to 127.0.0.1, a loopback address'),
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a direct event to a private URL at delivery', async () => {
    const profileId = await newProfile(ctx);
    ctx.app.webhooks.registerPolicy('once', { delaysMs: [], timeoutMs: 1000 });
    const { id } = await ctx.app.db.transaction((tx) =>
      ctx.app.webhooks.sendDirect(tx, {
        profileId,
        type: 'verification.approved',
        data: {},
        url: receiver.url('/direct'),
        signer: 'service-hmac',
        policy: 'once',
      }),
    );
    await ctx.app.jobs.drain();
    const [delivery] = await deliveriesOf(ctx, `eventId=${id}`);
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: 1, lastError: expect.stringContaining('loopback') });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('the request goes to the address that was checked', () => {
  it('connects to the pinned address while TLS still checks the host name', async () => {
    const cert = await makeCertificate();
    const receiver = await startReceiver(cert);
    try {
      // hooks.example.test exists in no real DNS: only the pinned lookup can get the request there.
      const target = await checkTarget(`https://hooks.example.test:${receiver.port}/pinned?x=1`, {
        allowPrivate: true,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      expect(target).toMatchObject({ hostname: 'hooks.example.test', address: '127.0.0.1', family: 4 });
      const sent = await postWebhook(target, { 'content-type': 'application/json' }, '{"a":1}', { timeoutMs: 2000, ca: cert.cert });
      expect(sent).toMatchObject({ statusCode: 200 });
      expect(receiver.received).toEqual([expect.objectContaining({ path: '/pinned?x=1', body: '{"a":1}' })]);
      // Without the CA the self-signed receiver is not trusted: TLS verification stays on.
      const untrusted = await postWebhook(target, {}, '{}', { timeoutMs: 2000 });
      expect(untrusted.statusCode).toBeUndefined();
      expect(untrusted.error).toMatch(/certificate/i);
      // A certificate for another name is refused even at the right address.
      const wrongName = await checkTarget(`https://other.example.test:${receiver.port}/`, {
        allowPrivate: true,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      expect((await postWebhook(wrongName, {}, '{}', { timeoutMs: 2000, ca: cert.cert })).error).toMatch(/altnames|hostname/i);
    } finally {
      await receiver.close();
    }
  });

  it('reuses a kept-alive connection only for the address that was checked for the request', async () => {
    const cert = await makeCertificate();
    const receiver = await startReceiver(cert);
    const connections = createConnectionPool({ ca: cert.cert });
    try {
      const at = (address: string) =>
        checkTarget(`https://hooks.example.test:${receiver.port}/pinned`, {
          allowPrivate: true,
          resolve: async () => [{ address, family: 4 }],
        });
      const checked = await at('127.0.0.1');
      for (let i = 0; i < 3; i++) {
        expect(await postWebhook(checked, {}, `{"n":${i}}`, { timeoutMs: 2000, connections })).toMatchObject({ statusCode: 200 });
      }
      expect(receiver.connections).toBe(1);
      expect(connections.opened).toBe(1);
      // The same name now resolves elsewhere (127.0.0.2, where nothing listens): the open
      // connection to 127.0.0.1 is not used for it; the request goes to 127.0.0.2 and fails.
      const moved = await postWebhook(await at('127.0.0.2'), {}, '{}', { timeoutMs: 2000, connections });
      expect(moved).toMatchObject({ unanswered: true, error: expect.stringMatching(/ECONNREFUSED.*127\.0\.0\.2/) });
      expect(receiver.received).toHaveLength(3);
      // A receiver that closed its idle connection: the next request reconnects and still arrives.
      receiver.closeIdle();
      await new Promise((r) => setTimeout(r, 50));
      expect(await postWebhook(checked, {}, '{}', { timeoutMs: 2000, connections })).toMatchObject({ statusCode: 200 });
      expect(receiver.received).toHaveLength(4);
    } finally {
      connections.close();
      await receiver.close();
    }
  });

  it('refuses non-https URLs and credentials before any DNS', async () => {
    const never: Resolver = async () => {
      throw new Error('must not resolve');
    };
    for (const url of ['http://example.com/', 'ws://example.com/', 'https://u:p@example.com/', '/relative']) {
      await expect(checkTarget(url, { allowPrivate: false, resolve: never })).rejects.toBeInstanceOf(WebhookTargetError);
    }
  });
});
