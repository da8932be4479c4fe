import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/suite.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/verify-record.js');

/** Runs the CLI as a plain `node` child process: no build, no TypeScript, no server. */
function runCli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 20_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });
}

describe('verify-record on the transparency log, offline', () => {
  const { ctx } = useTestApp();
  let dir: string;
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  let records: { seq: number; record_id: string }[];
  let logs: { tree_size: number; checkpoint: string; verifier_key: string; ml_dsa: { public_key: string } }[];
  let key: string;
  let publicKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-log-'));
    const tenant = await governedTenant(ctx);
    key = tenant.key;
    logs = [];
    for (const size of [5, 9]) {
      while (((await call(ctx, 'GET', '/v1/governance/log', undefined, key)).body.tree_size as number) < size) {
        expect((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), key)).status).toBe(201);
      }
      logs.push((await call(ctx, 'GET', '/v1/governance/log', undefined, key)).body);
    }
    records = (await call(ctx, 'GET', '/v1/governance/records', undefined, key)).body.records;
    publicKey = (await call(ctx, 'GET', '/v1/crypto/keys')).body.keys[0].public_key;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const inclusion = async (seq: number, treeSize: number) =>
    file(
      `inclusion-${seq}-${treeSize}.json`,
      (await call(ctx, 'GET', `/v1/governance/proofs/inclusion?seq=${seq}&tree_size=${treeSize}`, undefined, key)).body,
    );
  const consistency = async (from: number, to: number) =>
    file(
      `consistency-${from}-${to}.json`,
      (await call(ctx, 'GET', `/v1/governance/proofs/consistency?from=${from}&to=${to}`, undefined, key)).body,
    );

  it('verifies every record of a checkpoint, with the record signature when the key is given', async () => {
    const note = file('nine.note', logs[1]!.checkpoint);
    for (const record of records) {
      const res = await runCli([
        file(`r${record.seq}.json`, record),
        '--checkpoint',
        note,
        '--verifier-key',
        logs[1]!.verifier_key,
        '--proof',
        await inclusion(record.seq, 9),
      ]);
      expect(res).toEqual({
        code: 0,
        out: `VALID included: record_id=${record.record_id} seq=${record.seq} in tree 9 of ${logs[1]!.checkpoint.split('\n')[0]}\n`,
      });
    }
    const signed = await runCli([
      file('r3.json', records[2]),
      '--public-key',
      publicKey,
      '--checkpoint',
      note,
      '--verifier-key',
      logs[1]!.verifier_key,
      '--proof',
      await inclusion(3, 9),
    ]);
    expect(signed.code).toBe(0);
    expect(signed.out).toMatch(/^VALID included: .* key_id=[0-9a-f]{16}\n$/);
  });

  it('verifies the ML-DSA-65 signature when given the whole /log answer and its key', async () => {
    const answer = file('five.json', logs[0]);
    const args = [
      file('r2.json', records[1]),
      '--checkpoint',
      answer,
      '--verifier-key',
      logs[0]!.verifier_key,
      '--proof',
      await inclusion(2, 5),
    ];
    const res = await runCli([...args, '--ml-dsa-key', logs[0]!.ml_dsa.public_key]);
    expect(res).toMatchObject({ code: 0, out: expect.stringMatching(/ ml_dsa=verified\n$/) });
    const forged = file('five-forged.json', {
      ...logs[0],
      ml_dsa: { ...logs[0]!.ml_dsa, signature: Buffer.alloc(3309, 7).toString('base64') },
    });
    const refused = await runCli([...args.slice(0, 2), forged, ...args.slice(3), '--ml-dsa-key', logs[0]!.ml_dsa.public_key]);
    expect(refused).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID ML_DSA_SIGNATURE_INVALID/) });
    // A note alone does not carry the ML-DSA signature.
    const bare = await runCli([
      ...args.slice(0, 2),
      file('five.note', logs[0]!.checkpoint),
      ...args.slice(3),
      '--ml-dsa-key',
      logs[0]!.ml_dsa.public_key,
    ]);
    expect(bare).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID ML_DSA_MISSING/) });
  });

  it('refuses a changed record, a forged checkpoint, another key and a proof of another tree', async () => {
    const note = file('nine.note', logs[1]!.checkpoint);
    const vkey = logs[1]!.verifier_key;
    const proof = await inclusion(4, 9);
    const changed = await runCli([
      file('changed.json', { ...records[3], action: 'payments.other' }),
      '--checkpoint',
      note,
      '--verifier-key',
      vkey,
      '--proof',
      proof,
    ]);
    expect(changed).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID NOT_INCLUDED/) });
    const forgedNote = file('forged.note', logs[1]!.checkpoint.replace('\n9\n', '\n8\n'));
    const forged = await runCli([file('r4.json', records[3]), '--checkpoint', forgedNote, '--verifier-key', vkey, '--proof', proof]);
    expect(forged).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID CHECKPOINT_SIGNATURE_INVALID/) });
    const otherKey = vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(await runCli([file('r4.json', records[3]), '--checkpoint', note, '--verifier-key', otherKey, '--proof', proof])).toMatchObject({
      code: 2,
    });
    const wrongTree = await runCli([
      file('r4.json', records[3]),
      '--checkpoint',
      note,
      '--verifier-key',
      vkey,
      '--proof',
      await inclusion(4, 5),
    ]);
    expect(wrongTree).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID PROOF_MISMATCH/) });
    const wrongSeq = await runCli([file('r5.json', records[4]), '--checkpoint', note, '--verifier-key', vkey, '--proof', proof]);
    expect(wrongSeq).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID PROOF_MISMATCH/) });
  });

  it('verifies that a later checkpoint extends an earlier one, and refuses what does not', async () => {
    const older = file('five.note', logs[0]!.checkpoint);
    const newer = file('nine.note', logs[1]!.checkpoint);
    const vkey = logs[1]!.verifier_key;
    const proof = await consistency(5, 9);
    const res = await runCli(['--consistency', older, newer, '--verifier-key', vkey, '--proof', proof]);
    expect(res).toEqual({ code: 0, out: `VALID consistent: tree 5 is a prefix of tree 9 of ${logs[0]!.checkpoint.split('\n')[0]}\n` });
    const withPq = await runCli([
      '--consistency',
      file('five.json', logs[0]),
      file('nine.json', logs[1]),
      '--verifier-key',
      vkey,
      '--proof',
      proof,
      '--ml-dsa-key',
      logs[0]!.ml_dsa.public_key,
    ]);
    expect(withPq).toMatchObject({ code: 0, out: expect.stringMatching(/ ml_dsa=verified\n$/) });

    const swapped = await runCli(['--consistency', newer, older, '--verifier-key', vkey, '--proof', proof]);
    expect(swapped).toMatchObject({ code: 1, out: expect.stringMatching(/^INVALID PROOF_MISMATCH/) });
    const answer = JSON.parse((await call(ctx, 'GET', '/v1/governance/proofs/consistency?from=5&to=9', undefined, key)).raw.body);
    const tampered = file('tampered.json', { ...answer, proof: [...answer.proof.slice(0, -1), Buffer.alloc(32).toString('base64')] });
    expect(await runCli(['--consistency', older, newer, '--verifier-key', vkey, '--proof', tampered])).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^INVALID NOT_CONSISTENT/),
    });
  });

  it.each([
    [['--consistency', 'a.note'], '--consistency needs the old and the new checkpoint files'],
    [['r.json', '--checkpoint', 'a.note'], '--checkpoint needs --verifier-key and --proof'],
    [['r.json', '--public-key', 'x', '--proof', 'p.json'], 'go with --checkpoint or --consistency'],
    [['--consistency', 'a', 'b', '--verifier-key', 'not-a-key', '--proof', 'p.json'], '--verifier-key must be'],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const res = await runCli(args);
    expect(res.code).toBe(2);
    expect(res.out).toContain(message);
  });
});
