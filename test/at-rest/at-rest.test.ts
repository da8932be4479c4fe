import { execFile } from 'node:child_process';
import { randomBytes, sign, verify } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKeyOf, envelopeOfText, isSealedText, masterKeyIdOf } from '../../src/at-rest/envelope.js';
import { secretCells } from '../../src/at-rest/rows.js';
import { blobMasterKeyIds, SEALED_MARKER } from '../../src/at-rest/sealed-blobs.js';
import { rotateDataKey } from '../../src/at-rest/rotate.js';
import { createFileBlobStore } from '../../src/blobs/store.js';
import { configFrom } from '../../src/config.js';
import { rowsOf } from '../../src/db/client.js';
import { liveSigningKey } from '../../src/signing-keys/service.js';
import { verifyServiceSignature } from '../../src/webhooks/verify.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { api, captureIntoManualReview, HIGH_LIMITS, identityTenant, type IdentityTenant } from '../helpers/identity.js';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../helpers/receivers.js';
import { newProfile, publish, register } from '../helpers/webhooks.js';

const root = join(import.meta.dirname, '../..');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const newKey = () => randomBytes(32).toString('base64');

/**
 * Encryption at rest end to end (docs/operations.md, "Encryption at rest"), on a store that outlives its
 * servers: the embedded database in DATA_DIR (or a PostgreSQL database with DATABASE_URL) and
 * the file blob store. Each step restarts the app on the same store, as an operator would.
 */
describe('encryption at rest of signing seeds, webhook secrets and images', () => {
  let certificate: Certificate;
  let receiver: Receiver;
  let first: TestContext;
  let ctx: TestContext;
  let tenant: IdentityTenant;
  let reviewId: string;
  let images: Map<string, Buffer>;
  let endpoint: { id: string; secret: string; profileId: string };
  let attestationKey: { kid: string; publicKey: Buffer };

  const blobsDir = () => join(first.env.DATA_DIR!, 'blobs');
  const keyFile = () => join(first.env.DATA_DIR!, 'data.key');
  const baseEnv = () => ({ ...HIGH_LIMITS, WEBHOOK_RETRY_DELAYS_MS: '1000' });

  /** Closes the running app (the store stays) and starts another on the same store with `env`. */
  async function restart(env: Record<string, string> = {}): Promise<void> {
    if (ctx !== first) await ctx.app.close();
    else await first.app.close();
    ctx = await buildTestApp({
      shareWith: first,
      env: { DATA_KEY: '', DATA_KEY_PREVIOUS: '', ...env },
      webhooks: { ca: certificate.cert },
    });
  }
  const startRefused = (env: Record<string, string>) =>
    buildTestApp({ shareWith: first, env: { DATA_KEY: '', DATA_KEY_PREVIOUS: '', ...env } }).then(
      async (other) => {
        await other.app.close();
        throw new Error('the app started');
      },
      (err: Error) => err.message,
    );

  const rawCells = async () =>
    rowsOf<{ seed: string }>(await ctx.app.db.execute(sql`select seed from signing_keys where seed is not null`))
      .map((r) => r.seed)
      .concat(
        rowsOf<{ secret: string; previous_secret: string | null }>(
          await ctx.app.db.execute(sql`select secret, previous_secret from webhook_endpoints`),
        ).flatMap((r) => [r.secret, ...(r.previous_secret ? [r.previous_secret] : [])]),
      );
  const blobFiles = () =>
    readdirSync(blobsDir(), { recursive: true, encoding: 'utf8' })
      .filter((f) => statSync(join(blobsDir(), f)).isFile() && f !== SEALED_MARKER)
      .map((f) => readFileSync(join(blobsDir(), f)));

  /** Reads the raw rows and files: no secret and no image in plain anywhere. */
  async function expectNothingPlain(): Promise<void> {
    const cells = await rawCells();
    expect(cells.length).toBeGreaterThanOrEqual(5);
    for (const raw of cells) {
      expect(isSealedText(raw), raw.slice(0, 12)).toBe(true);
      expect(raw).not.toContain(endpoint.secret);
      expect(raw).not.toContain(endpoint.secret.slice(6));
    }
    const files = blobFiles();
    expect(files.length).toBeGreaterThanOrEqual(images.size);
    for (const bytes of files) {
      expect(bytes.subarray(0, 4).equals(PNG_MAGIC)).toBe(false);
      expect(bytes.includes(PNG_MAGIC)).toBe(false);
      expect(bytes.subarray(0, 3).equals(JPEG_MAGIC)).toBe(false);
      for (const image of images.values()) expect(bytes.includes(image.subarray(16, 80))).toBe(false);
    }
  }

  /** Everything still works: the images reach the reviewer, the signing key is the same and signs, the webhook secret signs. */
  async function expectWorking(): Promise<void> {
    for (const [path, bytes] of images) {
      const res = await api(ctx).call('GET', `/v1/review/${reviewId}/images/${path}`, tenant.reviewer, undefined, 200);
      expect(res.rawPayload.equals(bytes), path).toBe(true);
    }
    const key = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'attestation');
    expect(key.kid).toBe(attestationKey.kid);
    expect(key.publicKey.equals(attestationKey.publicKey)).toBe(true);
    const message = Buffer.from('a message');
    expect(verify(null, message, key.publicKeyObject, sign(null, message, key.privateKey))).toBe(true);

    const before = receiver.received.length;
    await publish(ctx, endpoint.profileId, 'order.paid', { id: `order-${before}` });
    await ctx.app.jobs.drain();
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const header = got[0]!.headers['service-signature'] as string;
    const now = Math.floor(ctx.clock.now().getTime() / 1000);
    expect(verifyServiceSignature(got[0]!.body, header, endpoint.secret, { toleranceSec: 300, now })).toMatchObject({ ok: true });
  }

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await startReceiver(certificate);
    // The embedded database in DATA_DIR (not in memory), so that it outlives each app.
    first = await buildTestApp({
      env: { ...baseEnv(), ...(process.env.DATABASE_URL ? {} : { DATABASE_URL: '' }) },
      webhooks: { ca: certificate.cert },
    });
    ctx = first;
  }, 600_000);
  afterAll(async () => {
    if (ctx !== first) await ctx?.app.close();
    await first?.close();
    await receiver?.close();
  });

  it(
    'creates the key file (0600) on the first start and stores seeds, webhook secrets and images sealed',
    { timeout: 600_000 },
    async () => {
      expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile(), 'utf8').trim(), 'base64')).toHaveLength(32);

      tenant = await identityTenant(ctx);
      const review = await captureIntoManualReview(ctx, tenant.backend, 11);
      reviewId = review.id;
      images = new Map();
      for (const path of ['document', ...review.challenge.steps.map((s: { step: number }) => `selfie/${s.step}`)]) {
        images.set(path, (await api(ctx).call('GET', `/v1/review/${reviewId}/images/${path}`, tenant.reviewer, undefined, 200)).rawPayload);
      }
      expect(images.get('document')!.subarray(0, 4).equals(PNG_MAGIC)).toBe(true);
      const profileId = await newProfile(ctx);
      endpoint = { ...(await register(ctx, profileId, receiver.url('/hooks'))), profileId };
      expect(endpoint.secret).toMatch(/^whsec_/);
      // A rotated secret: previous_secret holds the former one, sealed too.
      endpoint.secret = (await ctx.admin('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`)).data.secret;
      const key = await liveSigningKey(ctx.app.db, ctx.clock, ctx.app.dataKeys, 'attestation');
      attestationKey = { kid: key.kid, publicKey: key.publicKey };

      await expectNothingPlain();
      // No seed in plain: each raw cell differs from the base64 of the seed it opens to.
      for (const cell of await secretCells(ctx.app.db)) {
        const plain = ctx.app.dataKeys.openText(cell.context, cell.value);
        expect(cell.value).not.toContain(plain);
      }
      await expectWorking();
    },
  );

  it(
    'refuses to start with a wrong key, a malformed one, or none while sealed data exists, and says why',
    { timeout: 600_000 },
    async () => {
      await ctx.app.close();
      const wrong = await startRefused({ DATA_KEY: newKey() });
      expect(wrong).toMatch(
        /^wrong data key: DATA_KEY is master key [0-9a-f]{16}, but the database holds secrets sealed under [0-9a-f]{16}/,
      );
      expect(wrong).toMatch(/every instance of one deployment needs the same key/);

      const kept = readFileSync(keyFile());
      writeFileSync(keyFile(), 'not a key\n');
      expect(await startRefused({})).toMatch(/DATA_KEY_FILE .*data\.key does not hold a data key: it must be the base64 of 32 bytes/);
      writeFileSync(keyFile(), kept);

      renameSync(keyFile(), `${keyFile()}.away`);
      expect(await startRefused({})).toMatch(
        /^no data key: DATA_KEY is unset and .*data\.key does not exist, but the database holds secrets sealed under/,
      );
      // No new key was made beside the data it could not open.
      expect(readdirSync(first.env.DATA_DIR!)).not.toContain('data.key');
      renameSync(`${keyFile()}.away`, keyFile());
      expect(readFileSync(keyFile()).equals(kept)).toBe(true);

      ctx = await buildTestApp({ shareWith: first, webhooks: { ca: certificate.cert } });
      await expectWorking();
    },
  );

  it(
    'seals in place what the version before stored in plain, again after an interruption, and everything works',
    { timeout: 600_000 },
    async () => {
      // The store as the previous version wrote it: every cell and every file in plain, no marker.
      const keys = ctx.app.dataKeys;
      for (const cell of await secretCells(ctx.app.db)) expect(await cell.swap(keys.openText(cell.context, cell.value))).toBe(true);
      const raw = createFileBlobStore(blobsDir());
      const sealedStore = ctx.app.blobs;
      for await (const key of raw.list()) {
        if (key === SEALED_MARKER) await raw.delete(key);
        else expect(await raw.replace(key, await sealedStore.get(key))).toBe(true);
      }
      expect((await rawCells()).some((c) => c.includes(endpoint.secret))).toBe(true);
      expect(blobFiles().some((b) => b.subarray(0, 4).equals(PNG_MAGIC))).toBe(true);
      // An interrupted pass left one file sealed and the rest plain: the next start carries on.
      let oneKey: string | undefined;
      for await (const key of raw.list()) if (key !== SEALED_MARKER) oneKey ??= key;
      await sealedStore.replace(oneKey!, await sealedStore.get(oneKey!));

      await restart();
      await expectNothingPlain();
      expect(await raw.exists(SEALED_MARKER)).toBe(true);
      await expectWorking();
    },
  );

  it(
    'rotates every wrap to a new key while a server reads with both, then serves with the new key alone',
    { timeout: 900_000 },
    async () => {
      const old = readFileSync(keyFile(), 'utf8').trim();
      const next = newKey();
      const oldId = masterKeyOf(Buffer.from(old, 'base64')).id;
      const nextId = masterKeyOf(Buffer.from(next, 'base64')).id;
      // Step 1: the server runs with the new key and the old one beside it.
      await restart({ DATA_KEY: next, DATA_KEY_PREVIOUS: old });
      await expectWorking();
      // Step 2: rotate-data-key beside the running server.
      const raw = createFileBlobStore(blobsDir());
      const summary = await rotateDataKey(configFrom({ ...ctx.env, DATA_KEY: next, DATA_KEY_PREVIOUS: old }), ctx.app.db, raw);
      expect(summary.masterKey).toBe(nextId);
      expect(summary.rows.rewrapped).toBeGreaterThanOrEqual(5);
      expect(summary.blobs.rewrapped).toBe(blobFiles().length);
      for (const cell of await rawCells()) expect(masterKeyIdOf(envelopeOfText(cell))).toBe(nextId);
      expect([...(await blobMasterKeyIds(raw))]).toEqual([[nextId, blobFiles().length]]);
      await expectNothingPlain();
      await expectWorking();
      // Again: nothing is left to rewrap.
      expect(await rotateDataKey(configFrom({ ...ctx.env, DATA_KEY: next, DATA_KEY_PREVIOUS: old }), ctx.app.db, raw)).toMatchObject({
        rows: { rewrapped: 0, sealed: 0 },
        blobs: { rewrapped: 0, sealed: 0 },
      });

      // Step 3: the new key alone; the old one opens nothing any more.
      await restart({ DATA_KEY: next });
      await expectWorking();
      await ctx.app.close();
      const refused = await startRefused({ DATA_KEY: old });
      expect(refused).toContain(`DATA_KEY is master key ${oldId}, but the database holds secrets sealed under ${nextId}`);
      ctx = await buildTestApp({ shareWith: first, env: { DATA_KEY: next }, webhooks: { ca: certificate.cert } });

      // The key file again, by `npm run admin -- rotate-data-key` (the embedded database needs the server stopped).
      await ctx.app.close();
      const cli = await adminCli(['rotate-data-key'], { ...ctx.env, DATA_KEY: '', DATA_KEY_PREVIOUS: next });
      expect(cli.err).toBe('');
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.out).rotated).toMatchObject({ masterKey: oldId, rows: { rewrapped: summary.rows.rewrapped } });
      ctx = await buildTestApp({ shareWith: first, webhooks: { ca: certificate.cert } });
      for (const cell of await rawCells()) expect(masterKeyIdOf(envelopeOfText(cell))).toBe(oldId);
      await expectWorking();
    },
  );

  it('rotate-data-key without the former key names the key it cannot open', { timeout: 300_000 }, async () => {
    await ctx.app.close();
    const cli = await adminCli(['rotate-data-key'], { ...ctx.env, DATA_KEY: newKey() });
    expect(cli.code).toBe(2);
    expect(cli.err).toMatch(/data sealed under master key [0-9a-f]{16}, which this process was not given: set DATA_KEY_PREVIOUS/);
    ctx = await buildTestApp({ shareWith: first, webhooks: { ca: certificate.cert } });
    await expectWorking();
  });
});

/** `npm run admin -- <args>` with `env` only, as an operator runs it. */
function adminCli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/cli.ts', ...args],
      { cwd: root, timeout: 240_000, env: { PATH: process.env.PATH ?? '', ...clean } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

describe('a new deployment without settings', () => {
  it('runs on in-memory PGlite with a key file made in DATA_DIR', { timeout: 300_000 }, async () => {
    const ctx = await buildTestApp();
    try {
      expect(statSync(join(ctx.env.DATA_DIR!, 'data.key')).mode & 0o777).toBe(0o600);
      const keys = rowsOf<{ seed: string }>(await ctx.app.db.execute(sql`select seed from signing_keys where seed is not null`));
      expect(keys.length).toBeGreaterThan(0);
      for (const { seed } of keys) expect(isSealedText(seed)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
