/**
 * Reads the machine-readable zone from document photos (README, "Document reading"): the front
 * end of a one-thread pool (worker.ts) that finds the zone, prepares it and runs the OCR, so no
 * pixel of it is touched on the API's event loop. The thread, and the OCR engines in it, start in
 * the background like the face models.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ReadResult, ReadTask } from './worker.js';

// Types only: a value imported from worker.ts would load it, and start its two OCR engines (each a
// thread of its own), on the importing thread, whose message ports then keep the process alive
// after close() (measured: `npm run documents:read-rate` never exited).
export type { DocumentReading, PassTrace, ReadResult } from './worker.js';

export interface DocumentReader {
  start(): void;
  /** Reads the images in order (the back of a card first) and stops at the first zone that holds. */
  read(images: Uint8Array[], opts?: { trace?: boolean }): Promise<ReadResult>;
  close(): Promise<void>;
}

export function createDocumentReader(opts: { nice?: number } = {}): DocumentReader {
  // From the compiled build the worker is worker.js; from source (tsx, vitest) it is worker.ts and
  // its thread needs the tsx loader too.
  const source = import.meta.url.endsWith('.ts');
  let pool: Piscina | undefined;
  const start = (): Piscina => {
    if (pool) return pool;
    pool = new Piscina({
      filename: fileURLToPath(new URL(source ? './worker.ts' : './worker.js', import.meta.url)),
      // One thread: its two engines already take both cores of a small machine, and the
      // pipeline decides one verification at a time per instance.
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      // The engines start asynchronously while the thread is idle: a blocking Atomics wait would stall that.
      atomics: 'disabled',
      execArgv: source ? ['--import', 'tsx'] : [],
      workerData: { nice: opts.nice ?? 10 },
    });
    // A thread that dies between tasks is replaced by the pool; its error must not crash the process.
    pool.on('error', () => {});
    return pool;
  };
  return {
    start: () => void start(),
    read: (images, readOpts = {}) => start().run({ images, trace: readOpts.trace } satisfies ReadTask) as Promise<ReadResult>,
    async close() {
      const p = pool;
      pool = undefined;
      await p?.close({ force: true });
    },
  };
}
