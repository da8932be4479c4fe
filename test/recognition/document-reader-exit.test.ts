import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { skippedOnPostgres } from '../helpers/once.js';

/**
 * How long a process that should end is given before it is killed. A bound on liveness, not a
 * speed budget: it only turns "never exits" into a failure instead of a hung suite.
 */
const EXIT_BOUND_MS = 60_000;

/** Resolves with how the child ended, or kills it (SIGKILL) once the bound has passed. */
function endedWithin<T extends { signal: NodeJS.Signals | null }>(exited: Promise<T>, kill: () => void): Promise<T> {
  const timer = setTimeout(kill, EXIT_BOUND_MS);
  return exited.finally(() => clearTimeout(timer));
}

describe.skipIf(skippedOnPostgres())(
  'the document reader lets its process end (DOCUMENT_READING=on, real OCR)',
  { timeout: 180_000 },
  () => {
    let server: ServerProcess | undefined;
    afterEach(() => server?.cleanup());

    it('a script that reads a document and closes the reader exits on its own', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'document-reader-close.ts')], {
        cwd: join(import.meta.dirname, '../..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      const ended = await endedWithin(exited, () => child.kill('SIGKILL'));
      // It read (nothing) and closed; a process kept alive by an open port is killed: signal SIGKILL.
      expect(out, err).toBe('closed, zone none\n');
      expect(ended).toEqual({ code: 0, signal: null });
    });

    it('a server with document reading on shuts down on SIGTERM and exits 0', async () => {
      server = await startServerProcess({ DOCUMENT_READING: 'on' });
      const running = server;
      running.child.kill('SIGTERM');
      const ended = await endedWithin(running.exited, () => running.child.kill('SIGKILL'));
      expect(ended).toEqual({ code: 0, signal: null });
      expect(running.logs.some((line) => line.includes('shut down cleanly'))).toBe(true);
    });
  },
);
