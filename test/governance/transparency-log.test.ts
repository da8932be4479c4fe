import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { canonicalJson } from '../../src/lib/canonical-json.js';
import { useTestApp } from '../helpers/suite.js';
import { createTenant } from '../helpers/tenants.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { buildGoVerifier, type GoJob } from './go-tlog.js';
import { consistency, mth, path } from './rfc9162.js';
import type { TestContext } from '../helpers/app.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

async function seal(ctx: TestContext, key: string, count: number) {
  for (let done = 0; done < count; done += 100) {
    const batch = Array.from({ length: Math.min(100, count - done) }, () =>
      call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), key),
    );
    for (const res of await Promise.all(batch)) expect(res.status).toBe(201);
  }
}

/** The profile's records exactly as issued, as leaves (their canonical bytes). */
async function leavesOf(ctx: TestContext, key: string): Promise<Buffer[]> {
  const leaves: Buffer[] = [];
  let after = 0;
  for (;;) {
    const page = (await call(ctx, 'GET', `/v1/governance/records?after_seq=${after}&limit=1000`, undefined, key)).body;
    leaves.push(...page.records.map((r: unknown) => Buffer.from(canonicalJson(r), 'utf8')));
    if (page.next_after_seq === null) return leaves;
    after = page.next_after_seq;
  }
}

/** Reads a checkpoint note: its body lines and its one signature line. */
function readNote(note: string) {
  const [body, signatures] = note.split('\n\n');
  const [origin, size, root] = body!.split('\n');
  return { body: `${body}\n`, origin, size: Number(size), root: root!, signatures: signatures! };
}

describe('the transparency log', () => {
  const { ctx } = useTestApp({
    // A thousand decisions of one key run past the default per-key rate limit.
    env: { PUBLIC_URL: 'https://evidence.example.com:8443', GOVERNANCE_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  let go: Awaited<ReturnType<typeof buildGoVerifier>>;
  beforeAll(async () => {
    go = await buildGoVerifier();
  });
  afterAll(() => go?.remove());

  it('answers an empty tree for a profile with no records, signed as a C2SP checkpoint', async () => {
    const tenant = await governedTenant(ctx, 'empty-log-agent');
    const res = await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key);
    expect(res.status).toBe(200);
    const origin = `evidence.example.com:8443/governance/${tenant.profileId}`;
    expect(res.body).toMatchObject({ origin, tree_size: 0 });
    const note = readNote(res.body.checkpoint);
    expect(note).toMatchObject({ origin, size: 0, root: b64(mth([])) });
    const verdicts = await go.run({ verifier_key: res.body.verifier_key, checkpoints: [res.body.checkpoint] });
    expect(verdicts.checkpoints).toEqual([{ ok: true }]);
  });

  it('signs each checkpoint with the note key and ML-DSA-65, a key of their own', async () => {
    const tenant = await governedTenant(ctx);
    await seal(ctx, tenant.key, 3);
    const log = (await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key)).body;
    const note = readNote(log.checkpoint);
    // `<name>+<8 hex key hash>+<base64>`: the base64 may hold '+' too.
    const [, name, hashHex, encoded] = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(log.verifier_key)!;
    expect(name).toBe(log.origin);
    const keyBytes = Buffer.from(encoded!, 'base64');
    expect(keyBytes[0]).toBe(1);
    const publicKey = keyBytes.subarray(1);
    // The one signature line: "— <origin> <base64(key hash ‖ signature)>".
    const match = /^\u2014 (\S+) (\S+)\n$/.exec(note.signatures);
    expect(match?.[1]).toBe(log.origin);
    const signed = Buffer.from(match![2]!, 'base64');
    expect(signed.subarray(0, 4).toString('hex')).toBe(hashHex);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]);
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(verify(null, Buffer.from(note.body), key, signed.subarray(4))).toBe(true);
    // Not the records' key.
    const { keys } = (await call(ctx, 'GET', '/v1/crypto/keys')).body;
    expect(keys.map((k: { public_key: string }) => k.public_key)).not.toContain(b64(publicKey));

    const mlDsaKey = Buffer.from(log.ml_dsa.public_key, 'base64');
    const mlDsaSignature = Buffer.from(log.ml_dsa.signature, 'base64');
    expect(ml_dsa65.verify(mlDsaSignature, Buffer.from(note.body), mlDsaKey)).toBe(true);
    expect(ml_dsa65.verify(mlDsaSignature, Buffer.from(note.body.replace('\n3\n', '\n4\n')), mlDsaKey)).toBe(false);

    // The same tree size answers the same signed checkpoint; a record later, a new one.
    expect((await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key)).body).toEqual(log);
    await seal(ctx, tenant.key, 1);
    const next = (await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key)).body;
    expect(next.tree_size).toBe(4);
    expect(next.verifier_key).toBe(log.verifier_key);
  });

  it('proves inclusion and consistency at sizes 1, 2, 3, 7, 8, 9 and 1000 and random pairs, as Go’s sumdb/tlog verifies', async () => {
    const tenant = await governedTenant(ctx);
    const sizes = [1, 2, 3, 7, 8, 9, 1000];
    const logs = [];
    for (const size of sizes) {
      await seal(ctx, tenant.key, size - (logs.at(-1)?.tree_size ?? 0));
      const log = (await call(ctx, 'GET', '/v1/governance/log', undefined, tenant.key)).body;
      expect(log.tree_size).toBe(size);
      logs.push(log);
    }
    const leaves = await leavesOf(ctx, tenant.key);
    expect(leaves).toHaveLength(1000);
    const job: Required<GoJob> = {
      verifier_key: logs[0].verifier_key,
      checkpoints: logs.map((l) => l.checkpoint),
      roots: [],
      inclusions: [],
      consistencies: [],
    };

    const prove = async (seq: number, treeSize: number, checkpoint: number) => {
      const res = await call(ctx, 'GET', `/v1/governance/proofs/inclusion?seq=${seq}&tree_size=${treeSize}`, undefined, tenant.key);
      expect(res.status).toBe(200);
      const leaf = leaves[seq - 1]!;
      expect(res.body).toEqual({
        seq,
        leaf_index: seq - 1,
        tree_size: treeSize,
        leaf_hash: b64(mth([leaf])),
        proof: path(seq - 1, leaves.slice(0, treeSize)).map(b64),
      });
      job.inclusions.push({ checkpoint, leaf: leaf.toString('utf8'), index: seq - 1, proof: res.body.proof });
    };
    const proveConsistency = async (from: number, to: number, old: number, neu: number) => {
      const res = await call(ctx, 'GET', `/v1/governance/proofs/consistency?from=${from}&to=${to}`, undefined, tenant.key);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ from, to, proof: consistency(from, leaves.slice(0, to)).map(b64) });
      job.consistencies.push({ old, new: neu, proof: res.body.proof });
    };

    for (const [i, size] of sizes.entries()) {
      expect(readNote(logs[i].checkpoint).root).toBe(b64(mth(leaves.slice(0, size))));
      const seqs = size <= 9 ? Array.from({ length: size }, (_, k) => k + 1) : [1, 2, 511, 512, 513, 768, 999, 1000];
      for (const seq of seqs) await prove(seq, size, i);
      for (let j = 0; j <= i; j++) await proveConsistency(sizes[j]!, size, j, i);
    }
    // Random pairs, against roots the test computes from the exported records.
    const random = (n: number) => 1 + Math.floor(Math.random() * n);
    for (let k = 0; k < 25; k++) {
      const to = random(1000);
      const from = random(to);
      const rootIndex = logs.length + job.roots.length;
      job.roots.push({ size: from, hash: b64(mth(leaves.slice(0, from))) }, { size: to, hash: b64(mth(leaves.slice(0, to))) });
      await proveConsistency(from, to, rootIndex, rootIndex + 1);
      await prove(from, to, rootIndex + 1);
    }

    const verdicts = await go.run(job);
    expect(verdicts.checkpoints.every((v) => v.ok)).toBe(true);
    expect(verdicts.inclusions.filter((v) => !v.ok)).toEqual([]);
    expect(verdicts.consistencies.filter((v) => !v.ok)).toEqual([]);
    expect(verdicts.inclusions).toHaveLength(job.inclusions.length);

    // The independent verifier does fail: a proof of another leaf, a shortened proof, a forged checkpoint.
    // The proofs altered are ones against the log's own checkpoints, with two or more hashes. The
    // verifier numbers the roots after the checkpoints, so the forged checkpoint appended here moves
    // every random pair's root up by one: a shortened proof was then checked against the pair's
    // other root, and one drawn pair (PostgreSQL run of 9e94f48) happened to hold there.
    const inclusion = job.inclusions.find((p) => p.index === 511 && p.proof.length >= 2)!;
    const consistencyProof = job.consistencies.find((c) => c.proof.length >= 2)!;
    const wrong = await go.run({
      ...job,
      checkpoints: [...job.checkpoints, job.checkpoints[6]!.replace('\n1000\n', '\n999\n')],
      inclusions: [
        { ...inclusion, leaf: leaves[0]!.toString('utf8') },
        { ...inclusion, proof: inclusion.proof.slice(1) },
      ],
      consistencies: [{ ...consistencyProof, proof: consistencyProof.proof.slice(0, -1) }],
    });
    expect(wrong.checkpoints.at(-1)!.ok).toBe(false);
    expect(wrong.inclusions.map((v) => v.ok)).toEqual([false, false]);
    expect(wrong.consistencies.map((v) => v.ok)).toEqual([false]);
  });

  it.each([
    ['inclusion?seq=0&tree_size=1', 'seq must be at least 1'],
    ['inclusion?seq=-3&tree_size=1', 'seq must be at least 1'],
    ['inclusion?seq=3&tree_size=2', 'seq 3 is beyond tree_size 2'],
    ['inclusion?seq=1&tree_size=6', 'tree_size 6 is beyond the current tree size'],
    ['consistency?from=0&to=2', 'from must be at least 1'],
    ['consistency?from=3&to=2', 'from 3 is beyond to 2'],
    ['consistency?from=1&to=6', 'to 6 is beyond the current tree size'],
    ['consistency?from=6&to=6', 'to 6 is beyond the current tree size'],
  ])('refuses %s with 422 in the governance format', async (query, message) => {
    const tenant = await governedTenant(ctx);
    await seal(ctx, tenant.key, 5);
    const res = await call(ctx, 'GET', `/v1/governance/proofs/${query}`, undefined, tenant.key);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: { code: 'PROOF_OUT_OF_RANGE', message: expect.stringContaining(message) } });
  });

  it.each([
    ['inclusion?seq=1.5&tree_size=2', 'seq'],
    ['inclusion?seq=1', 'tree_size'],
    ['inclusion?seq=one&tree_size=2', 'seq'],
    ['consistency?from=1', 'to'],
    ['consistency?from=1&to=99999999999', 'to'],
  ])('refuses %s with 400 in the governance format', async (query, field) => {
    const tenant = await governedTenant(ctx);
    const res = await call(ctx, 'GET', `/v1/governance/proofs/${query}`, undefined, tenant.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.stringContaining(field) } });
  });

  it("answers the equal sizes' consistency with an empty proof", async () => {
    const tenant = await governedTenant(ctx);
    await seal(ctx, tenant.key, 2);
    expect((await call(ctx, 'GET', '/v1/governance/proofs/consistency?from=2&to=2', undefined, tenant.key)).body).toEqual({
      from: 2,
      to: 2,
      proof: [],
    });
  });

  it("never shows another profile's log", async () => {
    const mine = await governedTenant(ctx);
    const theirs = await governedTenant(ctx);
    await seal(ctx, mine.key, 4);
    await seal(ctx, theirs.key, 2);
    const myLog = (await call(ctx, 'GET', '/v1/governance/log', undefined, mine.key)).body;
    const theirLog = (await call(ctx, 'GET', '/v1/governance/log', undefined, theirs.key)).body;
    expect([myLog.tree_size, theirLog.tree_size]).toEqual([4, 2]);
    expect(myLog.origin).toContain(mine.profileId);
    expect(theirLog.origin).toContain(theirs.profileId);
    expect(readNote(theirLog.checkpoint).root).toBe(b64(mth(await leavesOf(ctx, theirs.key))));
    // Their tree has two leaves, whatever the size of mine.
    const beyond = await call(ctx, 'GET', '/v1/governance/proofs/inclusion?seq=3&tree_size=3', undefined, theirs.key);
    expect(beyond.status).toBe(422);
    const own = await call(ctx, 'GET', '/v1/governance/proofs/inclusion?seq=1&tree_size=2', undefined, theirs.key);
    expect(own.body.leaf_hash).toBe(b64(mth([(await leavesOf(ctx, theirs.key))[0]!])));
  });

  it('builds the tree of the records sealed before it existed (the backfill of migration 0012)', async () => {
    const tenants = [await governedTenant(ctx), await governedTenant(ctx)];
    await seal(ctx, tenants[0]!.key, 13);
    await seal(ctx, tenants[1]!.key, 1);
    const stored = async () => ({
      records: rowsOf(await ctx.app.db.execute(sql`select profile_id, seq, tree_hashes from governance_records order by profile_id, seq`)),
      heads: rowsOf(await ctx.app.db.execute(sql`select profile_id, tree_frontier from governance_chain_heads order by profile_id`)),
    });
    const sealed = await stored();
    const logs = await Promise.all(tenants.map(async (t) => (await call(ctx, 'GET', '/v1/governance/log', undefined, t.key)).body));
    // The database as it was before the migration: records and heads without tree hashes.
    await ctx.app.db.execute(sql`alter table governance_records alter column tree_hashes drop not null`);
    await ctx.app.db.execute(sql`alter table governance_records disable trigger governance_records_append_only`);
    await ctx.app.db.execute(sql`update governance_records set tree_hashes = null`);
    await ctx.app.db.execute(sql`alter table governance_records enable trigger governance_records_append_only`);
    await ctx.app.db.execute(sql`update governance_chain_heads set tree_frontier = ''::bytea`);
    const migration = readFileSync(new URL('../../migrations/0012_governance_transparency_log.sql', import.meta.url), 'utf8');
    const statements = migration.split('--> statement-breakpoint').slice(2);
    for (const statement of statements) await ctx.app.db.execute(sql.raw(statement));
    expect(await stored()).toEqual(sealed);
    // Records are append-only again.
    await expect(ctx.app.db.execute(sql`update governance_records set tree_hashes = null`)).rejects.toThrow();
    // The log answers as before, and sealing continues the same tree.
    for (const [i, t] of tenants.entries()) expect((await call(ctx, 'GET', '/v1/governance/log', undefined, t.key)).body).toEqual(logs[i]);
    await seal(ctx, tenants[1]!.key, 2);
    const log = (await call(ctx, 'GET', '/v1/governance/log', undefined, tenants[1]!.key)).body;
    expect(readNote(log.checkpoint).root).toBe(b64(mth(await leavesOf(ctx, tenants[1]!.key))));
  });

  it('needs a governance key with governance:read', async () => {
    const decideOnly = await createTenant(ctx, { service: 'governance', scopes: ['governance:decide'] });
    for (const url of [
      '/v1/governance/log',
      '/v1/governance/proofs/inclusion?seq=1&tree_size=1',
      '/v1/governance/proofs/consistency?from=1&to=1',
    ]) {
      expect((await call(ctx, 'GET', url)).status).toBe(401);
      const forbidden = await call(ctx, 'GET', url, undefined, decideOnly.key);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });
});
