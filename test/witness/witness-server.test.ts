import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkpointBody, noteVerifierKey, signNote } from '../../src/governance/checkpoint.js';
import { addCheckpointBody } from '../../src/governance/witness/protocol.js';
import { keyPairFromSeed } from '../../src/lib/ed25519.js';
import { ManualClock } from '../../src/lib/clock.js';
import { COSIGNATURE_ED25519, parseNoteKey, splitNote, verifyCosignature } from '../../src/lib/signed-note.js';
import { startWitness, type RunningWitness } from '../../src/witness/server.js';
import { consistency, mth } from '../governance/rfc9162.js';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const ORIGIN = 'evidence.example.com/governance/11111111-2222-4333-8444-555555555555';

/** A log of its own: a note key, leaves, and signed checkpoints of any prefix (or of another tree: a fork). */
function makeLog(origin = ORIGIN) {
  const key = keyPairFromSeed(randomBytes(32));
  const leaves = Array.from({ length: 20 }, (_, i) => Buffer.from(`leaf ${i}`));
  const forked = leaves.map((leaf, i) => (i === 4 ? Buffer.from('another leaf 4') : leaf));
  const note = (size: number, tree = leaves) => signNote(checkpointBody(origin, size, mth(tree.slice(0, size))), origin, key);
  const proof = (from: number, to: number, tree = leaves) => consistency(from, tree.slice(0, to)).map(b64);
  return { key, vkey: noteVerifierKey(origin, key.publicKey), leaves, forked, note, proof };
}

async function post(witness: RunningWitness, body: string) {
  const res = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('npm run witness: the C2SP tlog-witness add-checkpoint', () => {
  const log = makeLog();
  const clock = new ManualClock('2026-11-28T01:00:00Z');
  let dir: string;
  let witness: RunningWitness;
  const lines: string[] = [];
  const start = async () =>
    (witness = await startWitness({
      keyFile: join(dir, 'witness.key'),
      name: 'witness.test/w1',
      logs: [log.vkey],
      port: 0,
      clock,
      log: (l) => lines.push(l),
    }));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'witness-'));
    await start();
  });
  afterAll(async () => {
    await witness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes its key file with mode 0600 and gives its verifier key (type 0x04 cosignature key)', () => {
    const file = join(dir, 'witness.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^PRIVATE\+KEY\+witness\.test\/w1\+[0-9a-f]{8}\+/);
    const key = parseNoteKey(witness.key.verifierKey, COSIGNATURE_ED25519);
    expect(key.name).toBe('witness.test/w1');
  });

  it('cosigns the first checkpoint it sees from old 0, with a timestamped cosignature/v1 over the body', async () => {
    const note = log.note(3);
    const res = await post(witness, addCheckpointBody(0, [], note));
    expect(res).toMatchObject({ status: 200 });
    const signatures = splitNote(note + res.text)!.signatures;
    expect(signatures).toHaveLength(2);
    const key = parseNoteKey(witness.key.verifierKey, COSIGNATURE_ED25519);
    const body = note.slice(0, note.indexOf('\n\n') + 1);
    expect(verifyCosignature(body, signatures[1]!, key)).toBe(Math.floor(clock.now().getTime() / 1000));
    // Over another body, or read as another witness, it does not verify.
    expect(verifyCosignature(body.replace('\n3\n', '\n4\n'), signatures[1]!, key)).toBeNull();
  });

  it('answers 409 with its size as text/x.tlog.size when the old size is not the one it cosigned last', async () => {
    const res = await post(witness, addCheckpointBody(0, [], log.note(5)));
    expect(res).toEqual({ status: 409, type: 'text/x.tlog.size', text: '3\n' });
  });

  it('cosigns a larger tree only with a consistency proof from the size it holds', async () => {
    const bad = await post(witness, addCheckpointBody(3, log.proof(3, 8).slice(1), log.note(8)));
    expect(bad.status).toBe(422);
    clock.advance(60_000);
    const good = await post(witness, addCheckpointBody(3, log.proof(3, 8), log.note(8)));
    expect(good.status).toBe(200);
    expect(lines.at(-1)).toBe(`cosigned ${ORIGIN} at size 8 (old 3)`);
  });

  it('refuses a rollback: a smaller tree is 409 with the size it holds, whatever old size is claimed', async () => {
    expect(await post(witness, addCheckpointBody(5, [], log.note(5)))).toMatchObject({ status: 409, text: '8\n' });
    expect(await post(witness, addCheckpointBody(0, [], log.note(6)))).toMatchObject({ status: 409, text: '8\n' });
  });

  it('refuses a fork: another root at the same size is 409, another tree at a larger size fails its proof (422)', async () => {
    // Leaf 4 differs: the same log key signs a tree that is not the one the witness holds.
    expect(await post(witness, addCheckpointBody(8, [], log.note(8, log.forked)))).toMatchObject({ status: 409, text: '8\n' });
    const larger = await post(witness, addCheckpointBody(8, log.proof(8, 12, log.forked), log.note(12, log.forked)));
    expect(larger.status).toBe(422);
    // The same tree again is cosigned again (a fresh timestamp), and the honest tree still extends.
    expect((await post(witness, addCheckpointBody(8, [], log.note(8)))).status).toBe(200);
    expect((await post(witness, addCheckpointBody(8, log.proof(8, 12), log.note(12)))).status).toBe(200);
  });

  it('answers 404 for an unknown origin, 403 when no trusted key signed, 400 for old beyond the size or a bad body', async () => {
    const stranger = makeLog('other.example/log');
    expect((await post(witness, addCheckpointBody(0, [], stranger.note(2)))).status).toBe(404);
    const impostor = makeLog();
    expect((await post(witness, addCheckpointBody(12, log.proof(12, 14), impostor.note(14)))).status).toBe(403);
    expect((await post(witness, addCheckpointBody(15, [], log.note(14)))).status).toBe(400);
    expect((await post(witness, `old 012\n\n${log.note(14)}`)).status).toBe(400);
    expect((await post(witness, `old 12\nnot-a-hash\n\n${log.note(14)}`)).status).toBe(400);
    expect((await fetch(`${witness.url}/add-checkpoint`)).status).toBe(405);
    // Nothing of that moved it: 12 is still the size it holds.
    expect(await post(witness, addCheckpointBody(0, [], log.note(14)))).toMatchObject({ status: 409, text: '12\n' });
  });

  it('keeps the size and root it cosigned per origin across a restart, in a file next to its key', async () => {
    const state = JSON.parse(readFileSync(join(dir, 'witness.key.state.json'), 'utf8'));
    expect(state.origins[ORIGIN]).toEqual({ size: 12, root: b64(mth(log.leaves.slice(0, 12))) });
    const before = witness.key.verifierKey;
    await witness.close();
    await start();
    expect(witness.key.verifierKey).toBe(before);
    expect(await post(witness, addCheckpointBody(0, [], log.note(14)))).toMatchObject({ status: 409, text: '12\n' });
    expect((await post(witness, addCheckpointBody(12, log.proof(12, 14), log.note(14)))).status).toBe(200);
  });
});

describe('the witness key file', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a file that is not a witness key, and a log key that is not a note verifier key', async () => {
    dir = mkdtempSync(join(tmpdir(), 'witness-'));
    const keyFile = join(dir, 'bad.key');
    writeFileSync(keyFile, 'not a key\n');
    const log = makeLog();
    await expect(startWitness({ keyFile, logs: [log.vkey], port: 0 })).rejects.toThrow(/is not a witness key file/);
    await expect(startWitness({ keyFile: join(dir, 'new.key'), logs: ['origin+00000000+AAAA'], port: 0 })).rejects.toThrow(
      /^--log origin\+00000000\+AAAA: /,
    );
  });
});

describe('npm run witness (src/witness/main.ts as its own process)', () => {
  const root = join(import.meta.dirname, '../..');
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the witness's command line until it prints `until` (then stops it) or exits; its output and exit code. */
  function run(args: string[], until?: string): Promise<{ out: string; code: number | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/witness/main.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the witness never printed ${until}: ${out}`));
      }, 90_000);
      const seen = (chunk: Buffer) => {
        out += chunk.toString();
        if (until && out.includes(until)) child.kill('SIGTERM');
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ out, code });
      });
    });
  }

  it('makes its key file (0600) on the first start and prints its verifier key; refuses to start without a log', async () => {
    dir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
    const keyFile = join(dir, 'witness.key');
    const log = makeLog();
    const started = await run(['--key', keyFile, '--port', '0', '--log', log.vkey, '--name', 'witness.test/cli'], 'listening on');
    const vkey = /^witness (\S+)$/m.exec(started.out)?.[1];
    expect(parseNoteKey(vkey!, COSIGNATURE_ED25519).name).toBe('witness.test/cli');
    expect(started.out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(POST http:\/\/127\.0\.0\.1:\d+\/add-checkpoint\)/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // The private key never reaches the output.
    const secret = /^PRIVATE\+KEY\+[^+]+\+[0-9a-f]{8}\+(\S+)$/.exec(readFileSync(keyFile, 'utf8').trim())![1]!;
    expect(started.out).not.toContain(secret);

    const refused = await run(['--key', keyFile, '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/^witness: name at least one log with --log <verifier key>/);
  });
});
