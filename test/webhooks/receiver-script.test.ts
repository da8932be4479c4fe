import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_POLICY, IDENTITY_SIGNER } from '../../src/identity/webhooks.js';
import { computeServiceSignature } from '../../src/webhooks/verify.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { newProfile, register } from '../helpers/webhooks.js';

const root = join(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** `npm run webhook-receiver` as its own process, against a test app listening on a real port. */
describe('npm run webhook-receiver', () => {
  let dir: string;
  let receiver: ChildProcess;
  let output = '';
  let receiverPort: number;
  let ctx: TestContext;
  let ca: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'receiver-'));
    receiverPort = await freePort();
    const appPort = await freePort();
    receiver = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/webhook-receiver.ts',
        '--port',
        String(receiverPort),
        '--dir',
        dir,
        '--jwks',
        `http://127.0.0.1:${appPort}/v1/.well-known/jwks.json`,
      ],
      { cwd: root, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    receiver.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    receiver.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitForOutput('webhook receiver listening', 90_000);
    ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
    ctx = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, webhooks: { ca } });
    // Signatures carry the clock's time; the receiver checks it against its own (real) clock.
    ctx.clock.set(new Date());
    await ctx.app.listen({ port: appPort, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    receiver?.kill('SIGTERM');
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function waitForOutput(text: string, ms = 20_000) {
    const until = Date.now() + ms;
    while (!output.includes(text)) {
      if (Date.now() > until) throw new Error(`receiver never printed "${text}": ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function deliveryState(deliveryId: string) {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/admin/v1/webhook-deliveries/${deliveryId}`,
      headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
    });
    return res.json().data as { state: string; lastStatusCode: number | null };
  }

  it('prints how to start the server: the certificate file and the exact variables, the operator token included', () => {
    expect(output).toContain(
      `NODE_EXTRA_CA_CERTS=${join(dir, 'ca.pem')} WEBHOOK_ALLOW_PRIVATE_NETWORKS=true ADMIN_TOKEN=local-operator-token-123 npm start`,
    );
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it('verifies a real Service-Signature delivery with the secret saved in <dir>/secret, and rejects one signed with another', async () => {
    const profileId = await newProfile(ctx);
    const endpoint = await register(ctx, profileId, `https://127.0.0.1:${receiverPort}/ticketing`);
    writeFileSync(join(dir, 'secret'), `${endpoint.secret}\n`);
    const sent = (
      await ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/test`,
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      })
    ).json().data;
    await ctx.app.jobs.drain();
    expect(await deliveryState(sent.deliveryId)).toMatchObject({ state: 'succeeded', lastStatusCode: 200 });
    await waitForOutput(`POST /ticketing  VERIFIED Service-Signature (HMAC-SHA256)  service-event-id: ${sent.eventId}`);
    expect(output).not.toContain('REJECTED');
    expect(output).toContain('"type": "webhook.test"');

    writeFileSync(join(dir, 'secret'), 'whsec_not-the-endpoint-secret');
    const again = (
      await ctx.app.inject({
        method: 'POST',
        url: `/admin/v1/webhook-endpoints/${endpoint.id}/test`,
        headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' },
      })
    ).json().data;
    await ctx.app.jobs.drain();
    expect(await deliveryState(again.deliveryId)).toMatchObject({ lastStatusCode: 400 });
    await waitForOutput(`REJECTED Service-Signature: NO_MATCHING_SIGNATURE  service-event-id: ${again.eventId}`);
  }, 60_000);

  it("verifies a real identity decision webhook (Ed25519) with the server's JWKS, and rejects a forged one", async () => {
    const profileId = await newProfile(ctx);
    const { id } = await ctx.app.webhooks.sendDirect(ctx.app.db, {
      profileId,
      url: `https://127.0.0.1:${receiverPort}/identity`,
      type: 'verification.approved',
      data: { verification_id: '00000000-0000-4000-8000-000000000001', status: 'approved', reference: 'customer-42' },
      signer: IDENTITY_SIGNER,
      policy: IDENTITY_POLICY,
    });
    await ctx.app.jobs.drain();
    await waitForOutput('POST /identity  VERIFIED Standard Webhooks (Ed25519)');
    expect(output).toContain(`webhook-id: ${id}`);
    expect(output).toContain('"reference": "customer-42"');

    // The same scheme signed with a key the server never published.
    const forger = generateKeyPairSync('ed25519');
    const body = JSON.stringify({ id: 'forged', type: 'verification.approved', data: {} });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(`forged.${timestamp}.${body}`), forger.privateKey).toString('base64');
    const status = await post('/forged', body, {
      'webhook-id': 'forged',
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1a,${signature}`,
    });
    expect(status).toBe(400);
    await waitForOutput('POST /forged  REJECTED webhook-signature does not verify with the identity-webhook keys');
    // And a Service-Signature over other bytes than those sent.
    const tampered = await post('/tampered', '{"id":"x"}', {
      'service-signature': `t=${timestamp},v1=${computeServiceSignature('whsec_not-the-endpoint-secret', Number(timestamp), '{"id":"y"}')}`,
    });
    expect(tampered).toBe(400);
    expect(await post('/unsigned', '{}', {})).toBe(400);
  }, 60_000);

  function post(path: string, body: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: receiverPort, path, method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
});

/** Without --dir: no fixed shared path another local user could have prepared (docs/webhooks.md). */
describe('npm run webhook-receiver without --dir', () => {
  it('keeps its certificate and secret file in a fresh directory of its own, says which, and deletes it when stopped', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'receiver-tmp-'));
    try {
      const run = () => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/webhook-receiver.ts', '--port', '0'], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', TMPDIR: parent },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
        const dir = new Promise<string>((resolve, reject) => {
          const until = Date.now() + 90_000;
          const look = () => {
            const found = /^ {2}export RECEIVER=(.+)$/m.exec(output);
            if (found) resolve(found[1]!);
            else if (child.exitCode !== null || Date.now() > until) reject(new Error(`no directory printed: ${output}`));
            else setTimeout(look, 50);
          };
          look();
        });
        return { child, dir, output: () => output };
      };
      const first = run();
      const second = run();
      const [dirA, dirB] = await Promise.all([first.dir, second.dir]);
      expect(dirA).not.toBe(dirB);
      for (const [dir, receiver] of [
        [dirA, first],
        [dirB, second],
      ] as const) {
        expect(dirname(dir)).toBe(parent);
        expect(statSync(dir).mode & 0o777).toBe(0o700);
        expect(existsSync(join(dir, 'ca.pem'))).toBe(true);
        expect(receiver.output()).toContain(`NODE_EXTRA_CA_CERTS=${join(dir, 'ca.pem')} `);
        expect(receiver.output()).toContain(`the secret(s) in ${join(dir, 'secret')}`);
      }
      for (const { child } of [first, second]) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      expect(existsSync(dirA)).toBe(false);
      expect(existsSync(dirB)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }, 180_000);
});
