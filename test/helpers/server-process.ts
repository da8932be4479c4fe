import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Every log line so far (JSON). */
  logs: string[];
  /** What the process wrote to stderr so far (a crash's last words). */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  cleanup(): void;
}

const root = join(import.meta.dirname, '../..');

/**
 * Starts `src/server.ts` as a real process (as `npm start` does) and waits until it listens.
 * `launcher` is a command line the server runs under (it ends by exec'ing its arguments).
 */
export async function startServerProcess(
  env: Record<string, string>,
  { listenTimeoutMs = 60_000, launcher = [] as string[] } = {},
): Promise<ServerProcess> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'server-proc-'));
  const command = [...launcher, process.execPath, '--import', 'tsx', 'src/server.ts'];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      FACE_CHECKS: 'off',
      DOCUMENT_READING: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not listen in time: ${stderr}`));
    }, listenTimeoutMs);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        logs.push(line);
        const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr}`));
    });
  });
  return {
    child,
    port,
    logs,
    stderr: () => stderr,
    exited,
    cleanup() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
