import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { governanceRecords } from '../../src/db/schema/governance.js';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { recordHash } from '../../src/governance/seal.js';
import { appendLeaf, leafHash } from '../../src/governance/merkle.js';
import { keyPairFromSeed } from '../../src/lib/ed25519.js';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';
import { BOTH_SCOPES, call, goodDecision, governedTenant } from '../helpers/governance.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/verify-record.js');
const VECTORS = join(ROOT, 'test/vectors');
const read = (name: string) => JSON.parse(readFileSync(join(VECTORS, name), 'utf8'));
const vectorKey = read('key.json') as { seed: string; public_key: string; key_id: string };
const manifest = read('manifest.json') as {
  vectors: {
    file: string;
    at?: string;
    chain?: boolean;
    kind?: string;
    cli_exit: number;
    cli_code: string | null;
    server_code?: string | null;
    admitted_before?: boolean;
  }[];
};

/** Runs the CLI as a plain `node` child process: no build, no TypeScript, no server. */
function runCli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 20_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });
}

describe('verify-record CLI on the published vectors', () => {
  it.each(manifest.vectors.map((v) => [v.file, v] as const))('%s', async (_file, v) => {
    const args = [
      join(VECTORS, v.file),
      '--public-key',
      vectorKey.public_key,
      ...(v.chain ? ['--chain'] : []),
      ...(v.at ? ['--at', v.at] : []),
    ];
    const { code, out } = await runCli(args);
    expect(code).toBe(v.cli_exit);
    expect(out.trim().split('\n')).toHaveLength(1);
    if (v.cli_code) expect(out).toMatch(new RegExp(`^INVALID ${v.cli_code}`));
    else expect(out).toMatch(/^VALID /);
  });

  it('refuses the vectors under another key, and a record whose key_id is not the given key', async () => {
    const other = keyPairFromSeed(Buffer.alloc(32, 7)).publicKey.toString('base64');
    const { code, out } = await runCli([join(VECTORS, 'record-allow.json'), '--public-key', other]);
    expect(code).toBe(1);
    expect(out).toMatch(/^INVALID KEY_MISMATCH/);
  });

  it.each([
    ['no arguments', []],
    ['no public key', ['x.json']],
    ['an unknown option', ['x.json', '--public-key', 'AAAA', '--fast']],
    ['a key of the wrong length', ['x.json', '--public-key', 'AAAA']],
    ['a small-order key', ['x.json', '--public-key', Buffer.from([1, ...new Array(31).fill(0)]).toString('base64')]],
    ['a missing file', [join(VECTORS, 'missing.json'), '--public-key', vectorKey.public_key]],
    ['a bad --at', [join(VECTORS, 'record-allow.json'), '--public-key', vectorKey.public_key, '--at', 'soon']],
  ])('exits 2 on a usage error: %s', async (_what, args) => {
    const { code, out } = await runCli(args as string[]);
    expect(code).toBe(2);
    expect(out).toMatch(/^usage error: /);
    expect(out.trim().split('\n')).toHaveLength(1);
  });

  it.each([['--help'], ['-h'], ['record.json', '--help', '--fast']])('prints its usage and exits 0 when asked: %s', async (...args) => {
    const { code, out } = await runCli(args);
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: verify-record <file\.json> --public-key/);
    expect(out).toContain('--consistency <old note> <new note>');
    expect(out).not.toMatch(/^usage error/);
  });

  it('refuses files the strict reading refuses: duplicate keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const text = readFileSync(join(VECTORS, 'record-deny.json'), 'utf8').replace('{', '{"disposition": "ALLOW",');
    writeFileSync(join(dir, 'dup.json'), text);
    const { code, out } = await runCli([join(dir, 'dup.json'), '--public-key', vectorKey.public_key]);
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(out).toMatch(/^INVALID NON_CANONICAL_JSON: duplicate key "disposition"/);
  });
});

describe('the server agrees with the CLI', () => {
  const { ctx } = useTestApp({ env: { GOVERNANCE_SIGNING_KEY: vectorKey.seed } });
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-live-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs with the configured vector key', async () => {
    const { keys } = (await call(ctx, 'GET', '/v1/crypto/keys')).body;
    expect(keys.find((k: { status: string }) => k.status === 'current')).toMatchObject({
      kid: vectorKey.key_id,
      public_key: vectorKey.public_key,
    });
  });

  it('gives each vector the verdict and boundary code the manifest and the CLI give', async () => {
    // Load the vector chain into a tenant, as if this server had sealed it.
    const tenant = await createTenant(ctx, { service: 'governance', scopes: BOTH_SCOPES });
    let frontier: Buffer[] = [];
    for (const r of read('chain.json')) {
      const leaf = appendLeaf(frontier, r.seq - 1, leafHash(Buffer.from(canonicalJson(r), 'utf8')));
      frontier = leaf.frontier;
      await ctx.app.db.insert(governanceRecords).values({
        recordId: r.record_id,
        profileId: tenant.profileId,
        executionId: r.execution_id,
        agentId: r.agent_id,
        seq: r.seq,
        nonce: r.nonce,
        disposition: r.disposition,
        canonical: canonicalJson(r),
        hash: recordHash(r),
        treeHashes: Buffer.concat(leaf.stored),
        issuedAt: new Date(r.issued_at),
        expiresAt: new Date(r.expires_at),
      });
    }
    for (const v of manifest.vectors.filter((x) => !x.chain)) {
      const record = read(v.file);
      const verified = (await call(ctx, 'POST', '/v1/crypto/verify', { record })).body;
      expect(verified.valid, v.file).toBe(v.cli_code !== 'SIGNATURE_INVALID');
      ctx.clock.set(v.at!);
      if (v.admitted_before) {
        ctx.clock.set(record.issued_at);
        expect((await call(ctx, 'POST', '/v1/governance/admit', { record }, tenant.key)).status).toBe(200);
        ctx.clock.set(v.at!);
      }
      const challenged = await call(ctx, 'POST', '/v1/challenge/bypass', { kind: v.kind ?? 'replayed_receipt', record }, tenant.key);
      expect(challenged.body, v.file).toMatchObject({ rejected: v.server_code !== null, code: v.server_code ?? null });
    }
    const chain = (await call(ctx, 'POST', '/v1/crypto/verify', { record: read('chain.json')[4] })).body;
    expect(chain.chain).toEqual({ seq: 5, recorded: true, prev_hash_matches: true });
    ctx.clock.set('2026-11-22T12:00:00.000Z');
  });

  it('seals live records the CLI verifies offline, singly and as a chain, and rejects the same bypasses', async () => {
    const tenant = await governedTenant(ctx);
    const records = [];
    for (let i = 0; i < 3; i++) records.push((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), tenant.key)).body);
    const stale = (
      await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx, { timestamp: '2026-11-22T11:58:00.000Z' }), tenant.key)
    ).body;
    records.push(stale);
    const file = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    const key = ['--public-key', vectorKey.public_key];
    const now = ctx.clock.now().toISOString();
    expect((await runCli([file('one.json', records[0]), ...key])).code).toBe(0);
    expect((await runCli([file('chain.json', records), ...key, '--chain'])).out).toMatch(/^VALID chain of 4 records, seq 1\.\.4/);
    expect((await runCli([file('forked.json', [records[0], records[2]]), ...key, '--chain'])).out).toMatch(/^INVALID CHAIN_BROKEN/);
    // The export answer, whole or its records array, is a chain the CLI verifies.
    const exported = (await call(ctx, 'GET', '/v1/governance/records', undefined, tenant.key)).body;
    expect((await runCli([file('export.json', exported), ...key, '--chain'])).out).toMatch(/^VALID chain of 4 records, seq 1\.\.4/);
    expect((await runCli([file('export-records.json', exported.records), ...key, '--chain'])).out).toMatch(/^VALID chain of 4 records/);
    // One record, or none, is not a chain: a usage error, not CHAIN_BROKEN.
    const single = await runCli([file('one.json', records[0]), ...key, '--chain']);
    expect(single).toMatchObject({ code: 2, out: expect.stringMatching(/^usage error: .*one record/) });
    expect(await runCli([file('empty.json', { records: [], next_after_seq: null }), ...key, '--chain'])).toMatchObject({
      code: 2,
      out: expect.stringMatching(/^usage error: /),
    });
    const tampered = { ...records[1], inputs: { ...records[1].inputs, consequence_tier: 'CRITICAL' } };
    expect((await runCli([file('tampered.json', tampered), ...key])).out).toMatch(/^INVALID SIGNATURE_INVALID/);
    const admitTampered = await call(ctx, 'POST', '/v1/governance/admit', { record: tampered }, tenant.key);
    expect(admitTampered.body.error.code).toBe('SIGNATURE_INVALID');
    expect((await runCli([file('stale.json', stale), ...key, '--at', now])).out).toMatch(/^INVALID TIMESTAMP_OUT_OF_WINDOW/);
    expect((await call(ctx, 'POST', '/v1/governance/admit', { record: stale }, tenant.key)).body.error.code).toBe(
      'TIMESTAMP_OUT_OF_WINDOW',
    );
    ctx.clock.advance(300_000);
    const later = ctx.clock.now().toISOString();
    expect((await runCli([file('two.json', records[2]), ...key, '--at', later])).out).toMatch(/^INVALID RECEIPT_EXPIRED/);
    expect((await call(ctx, 'POST', '/v1/governance/admit', { record: records[2] }, tenant.key)).body.error.code).toBe('RECEIPT_EXPIRED');
    ctx.clock.advance(-300_000);
  });
});
