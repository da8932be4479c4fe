import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The independent check: test/governance/tlog-verifier (Go's golang.org/x/mod/sumdb/note and
 * sumdb/tlog, from the Debian packages golang-go and golang-golang-x-mod-dev) built into a
 * temporary directory, and one job run through it.
 */
const SOURCE = fileURLToPath(new URL('./tlog-verifier/', import.meta.url));

export interface GoJob {
  verifier_key: string;
  checkpoints: string[];
  roots?: { size: number; hash: string }[];
  inclusions?: { checkpoint: number; leaf: string; index: number; proof: string[] }[];
  consistencies?: { old: number; new: number; proof: string[] }[];
}
export interface Verdict {
  ok: boolean;
  error?: string;
}
export interface GoVerdicts {
  checkpoints: Verdict[];
  inclusions: Verdict[];
  consistencies: Verdict[];
}

export async function buildGoVerifier(): Promise<{ run(job: GoJob): Promise<GoVerdicts>; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'tlog-verifier-'));
  const binary = join(dir, 'tlog-verifier');
  await promisify(execFile)('go', ['build', '-o', binary, '.'], {
    cwd: SOURCE,
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(dir, 'cache') },
  });
  return {
    run: (job) =>
      new Promise((resolve, reject) => {
        const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve(JSON.parse(out) as GoVerdicts) : reject(new Error(`tlog-verifier exited ${code}: ${err}`)),
        );
        child.stdin.end(JSON.stringify(job));
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
