import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = join(import.meta.dirname, '..');

export interface Child {
  proc: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** A TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs a TypeScript entry point as its own process (the server as in production, or the
 * reference routes) on a free port, and waits until `readyPath` answers 200, for at most `readyWithinMs`.
 */
export async function startChild(
  entry: string,
  env: Record<string, string>,
  readyPath: string,
  readyWithinMs = 60_000,
  /** Pins the process and all its threads to these CPUs (`taskset -c`, e.g. "1"): what one core does. */
  cpus?: string,
): Promise<Child> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir> profiles every child (`node --cpu-prof`, one file per thread, written when
  // it exits); `npm run bench:profile <file>` summarises one.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const node = [process.execPath, ...profile, '--import', 'tsx', entry];
  const [command, ...args] = cpus === undefined ? node : ['taskset', '-c', cpus, ...node];
  const proc = spawn(command!, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited: ${stderr}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`${entry} was not ready within ${readyWithinMs / 1000} s: ${stderr}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(200);
  }
  return {
    proc,
    port,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size of a process in bytes (Linux /proc; 0 where unavailable). */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS until stopped; returns the peak. */
export function sampleRss(pid: number, everyMs = 25): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}
