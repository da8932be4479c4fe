import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startWitness, type RunningWitness } from '../../src/witness/server.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { call, goodDecision, governedTenant } from '../helpers/governance.js';
import { makeCertificate, type Certificate } from '../helpers/receivers.js';
import { buildGoVerifier } from './go-tlog.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/verify-record.js');

function runCli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 20_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });
}

interface LogAnswer {
  origin: string;
  tree_size: number;
  checkpoint: string;
  verifier_key: string;
  cosignatures: { witness: string; timestamp: string }[];
}

/**
 * Two witnesses (the project's own, over HTTPS with a self-signed CA the app trusts, as the
 * webhook tests' receivers) in front of one profile's log: every new checkpoint goes to both
 * through a job, a witness that is down delays nothing, and when it is back it gets the newest
 * checkpoint with a proof from the size it last cosigned.
 */
describe('witnessed checkpoints (LOG_WITNESSES)', () => {
  const clock = new ManualClock('2026-11-28T01:00:00Z');
  let dir: string;
  let certificate: Certificate;
  let ctx: TestContext;
  let key: string;
  let profileId: string;
  let logKey: string;
  const witnesses: Record<'a' | 'b', { running?: RunningWitness; port: number; vkey: string; lines: string[] }> = {
    a: { port: 0, vkey: '', lines: [] },
    b: { port: 0, vkey: '', lines: [] },
  };
  const nameOf = { a: 'witness.test/a', b: 'witness.test/b' };

  const start = async (which: 'a' | 'b', logs: string[]) => {
    const w = witnesses[which];
    w.running = await startWitness({
      keyFile: join(dir, `${which}.key`),
      name: nameOf[which],
      logs,
      port: w.port,
      tls: certificate,
      clock,
      log: (line) => w.lines.push(line),
    });
    w.port = w.running.port;
    w.vkey = w.running.key.verifierKey;
  };
  const stop = async (which: 'a' | 'b') => {
    await witnesses[which].running?.close();
    witnesses[which].running = undefined;
  };

  const log = async () => (await call(ctx, 'GET', '/v1/governance/log', undefined, key)).body as LogAnswer;
  const sealUpTo = async (size: number) => {
    while ((await log()).tree_size < size) {
      expect((await call(ctx, 'POST', '/v1/governance/decisions', goodDecision(ctx), key)).status).toBe(201);
    }
  };
  const witnessJobs = async () =>
    rowsOf<{ state: string; concurrency_key: string; run_at: Date | string; last_error: string | null }>(
      await ctx.app.db.execute(
        // By witness: both jobs are queued at one clock time, and a tie in created_at comes back in any order.
        sql`select state, concurrency_key, run_at, last_error from jobs where queue = 'governance.witness' order by concurrency_key`,
      ),
    );
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'witnessed-log-'));
    certificate = await makeCertificate();
    // The witnesses' keys and ports first (the app's LOG_WITNESSES names them), then the log's
    // key (the witnesses trust it): each witness is started again on its port once the log exists.
    await start('a', []);
    await start('b', []);
    await stop('a');
    await stop('b');
    ctx = await buildTestApp({
      clock,
      env: {
        PUBLIC_URL: 'https://evidence.example.com',
        LOG_WITNESSES: `${witnesses.a.vkey}=https://127.0.0.1:${witnesses.a.port}/,${witnesses.b.vkey}=https://127.0.0.1:${witnesses.b.port}`,
      },
      witnesses: { ca: certificate.cert },
    });
    const tenant = await governedTenant(ctx);
    key = tenant.key;
    profileId = tenant.profileId;
    logKey = (await log()).verifier_key;
    await start('a', [logKey]);
    await start('b', [logKey]);
  });
  afterAll(async () => {
    await stop('a');
    await stop('b');
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let noteAt3: string;
  let noteAt7: string;

  it('sends each new checkpoint to both witnesses and serves their cosignatures with the note', async () => {
    await sealUpTo(3);
    // One waiting job per witness, however many batches were sealed.
    expect((await witnessJobs()).map((j) => [j.state, j.concurrency_key])).toEqual([
      ['pending', `witness:${nameOf.a}`],
      ['pending', `witness:${nameOf.b}`],
    ]);
    await ctx.app.jobs.drain();
    const answer = await log();
    expect(answer.tree_size).toBe(3);
    const at = '2026-11-28T01:00:00.000Z';
    expect(answer.cosignatures).toEqual([
      { witness: nameOf.a, timestamp: at },
      { witness: nameOf.b, timestamp: at },
    ]);
    const lines = answer.checkpoint.split('\n\n')[1]!.trimEnd().split('\n');
    expect(lines.map((l) => l.split(' ')[1])).toEqual([answer.origin, nameOf.a, nameOf.b]);
    expect(witnesses.a.lines).toEqual([`cosigned ${answer.origin} at size 3 (old 0)`]);
    noteAt3 = answer.checkpoint;
  });

  it('serves a note the Go verifier still opens with the log key alone (it skips the cosignature lines)', async () => {
    const go = await buildGoVerifier();
    try {
      const verdicts = await go.run({ verifier_key: logKey, checkpoints: [noteAt3] });
      expect(verdicts.checkpoints).toEqual([{ ok: true }]);
    } finally {
      go.remove();
    }
  });

  it('goes on without a witness that is down: the other cosigns, its job waits to be retried', async () => {
    await stop('b');
    clock.advance(60_000);
    await sealUpTo(7);
    await ctx.app.jobs.drain();
    const answer = await log();
    expect(answer.tree_size).toBe(7);
    expect(answer.cosignatures).toEqual([{ witness: nameOf.a, timestamp: '2026-11-28T01:01:00.000Z' }]);
    noteAt7 = answer.checkpoint;
    const jobs = await witnessJobs();
    const waiting = jobs.filter((j) => j.state === 'pending');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ concurrency_key: `witness:${nameOf.b}` });
    expect(waiting[0]!.last_error).toMatch(/^no answer: .*ECONNREFUSED/);
    expect(new Date(waiting[0]!.run_at).getTime()).toBeGreaterThan(clock.now().getTime());

    // More records meanwhile: witness a follows, b's one job still waits (no pile of submissions).
    await sealUpTo(9);
    await ctx.app.jobs.drain();
    expect((await log()).cosignatures.map((c) => c.witness)).toEqual([nameOf.a]);
    expect((await witnessJobs()).filter((j) => j.state === 'pending')).toHaveLength(1);
    expect(witnesses.a.lines.at(-1)).toMatch(/at size 9 \(old 7\)$/);
  });

  it('sends a witness that is back the newest checkpoint with the proof from the size it last cosigned', async () => {
    await start('b', [logKey]);
    clock.advance(10 * 60_000);
    await ctx.app.jobs.drain();
    const answer = await log();
    expect(answer.tree_size).toBe(9);
    expect(witnesses.b.lines.at(-1)).toBe(`cosigned ${answer.origin} at size 9 (old 3)`);
    expect(answer.cosignatures).toEqual([
      { witness: nameOf.a, timestamp: '2026-11-28T01:01:00.000Z' },
      { witness: nameOf.b, timestamp: '2026-11-28T01:11:00.000Z' },
    ]);
    expect((await witnessJobs()).filter((j) => j.state === 'pending')).toEqual([]);
    // Which witness cosigned which size, as kept.
    const kept = rowsOf<{ witness: string; tree_size: number }>(
      await ctx.app.db.execute(
        sql`select witness, tree_size from governance_witness_cosignatures where profile_id = ${profileId} order by witness, tree_size`,
      ),
    );
    expect(kept.map((r) => `${r.witness}@${r.tree_size}`)).toEqual([
      `${nameOf.a}@3`,
      `${nameOf.a}@7`,
      `${nameOf.a}@9`,
      `${nameOf.b}@3`,
      `${nameOf.b}@9`,
    ]);
  });

  it('verify-record --witness … --quorum 2 passes with two cosignatures and fails clearly with one, offline', async () => {
    const both = ['--witness', witnesses.a.vkey, '--witness', witnesses.b.vkey];
    const nine = file('log-9.json', JSON.stringify(await log()));
    const passed = await runCli(['--checkpoint', nine, '--verifier-key', logKey, ...both, '--quorum', '2']);
    expect(passed).toEqual({
      code: 0,
      out: `VALID checkpoint: tree 9 of ${logKey.split('+')[0]} cosigned_by=${nameOf.a},${nameOf.b} quorum=2/2\n`,
    });

    const seven = file('note-7.txt', noteAt7);
    const failed = await runCli(['--checkpoint', seven, '--verifier-key', logKey, ...both, '--quorum', '2']);
    expect(failed).toEqual({
      code: 1,
      out: `INVALID QUORUM_NOT_MET: 1 of the 2 witness cosignatures required verify (${nameOf.a}); none verifies from ${nameOf.b}\n`,
    });
    expect((await runCli(['--checkpoint', seven, '--verifier-key', logKey, ...both, '--quorum', '1'])).code).toBe(0);

    // A cosignature line moved onto another checkpoint does not count.
    const moved = noteAt3
      .split('\n\n')[1]!
      .split('\n')
      .filter((l) => l.includes(nameOf.b));
    const forged = file('note-7-forged.txt', `${noteAt7}${moved.join('\n')}\n`);
    expect((await runCli(['--checkpoint', forged, '--verifier-key', logKey, ...both, '--quorum', '2'])).code).toBe(1);

    // With a record and its inclusion proof too.
    const records = (await call(ctx, 'GET', '/v1/governance/records', undefined, key)).body.records;
    const record = file('record.json', JSON.stringify(records[4]));
    const proof = file(
      'inclusion.json',
      JSON.stringify((await call(ctx, 'GET', '/v1/governance/proofs/inclusion?seq=5&tree_size=9', undefined, key)).body),
    );
    const included = await runCli([record, '--checkpoint', nine, '--verifier-key', logKey, '--proof', proof, ...both, '--quorum', '2']);
    expect(included.code).toBe(0);
    expect(included.out).toMatch(/^VALID included: .* seq=5 in tree 9 of .* quorum=2\/2\n$/);
  });

  it('refuses --quorum beyond the witnesses given, and a --witness that is not a cosignature key (usage, 2)', async () => {
    const seven = file('note-7.txt', noteAt7);
    const tooMany = await runCli(['--checkpoint', seven, '--verifier-key', logKey, '--witness', witnesses.a.vkey, '--quorum', '2']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.out).toMatch(/^usage error: --quorum 2 needs at least that many --witness keys \(1 given\)/);
    const logKeyAsWitness = await runCli(['--checkpoint', seven, '--verifier-key', logKey, '--witness', logKey]);
    expect(logKeyAsWitness.code).toBe(2);
    expect(logKeyAsWitness.out).toMatch(/must hold an Ed25519 cosignature key \(0x04 and 32 bytes\)/);
  });
});
