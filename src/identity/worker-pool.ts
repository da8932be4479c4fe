import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/**
 * A pool of worker threads over one worker module (identity/document/worker.ts, the OCR;
 * identity/faces/worker.ts, the face models), started on first use. Each thread starts its
 * engines or models in the background, so startup and /ready never wait for them, and a process
 * that never uses the pool (the operator CLI, tools) never starts a thread. The module is named by
 * its URL only: a value imported from it would load it, and start its engines, on the importing
 * thread (.dependency-cruiser.cjs, worker-threads-load-their-own-module).
 */
export interface WorkerPool {
  /** The pool, started now if it was not (idempotent). */
  started(): Piscina;
  /** The pool's threads; none before it starts. */
  readonly threads: readonly { terminate(): Promise<number> }[];
  /** Ends the threads at once, running tasks included. */
  close(): Promise<void>;
}

export function createWorkerPool(opts: {
  /** `import.meta.url` of a module in the worker's folder: the pool runs `./worker` beside it. */
  beside: string;
  threads: number;
  nice?: number;
}): WorkerPool {
  // From the compiled build the worker is worker.js; from source (tsx, vitest) it is worker.ts and
  // its thread needs the tsx loader too.
  const source = import.meta.url.endsWith('.ts');
  let pool: Piscina | undefined;
  const started = (): Piscina => {
    if (pool) return pool;
    pool = new Piscina({
      filename: fileURLToPath(new URL(source ? './worker.ts' : './worker.js', opts.beside)),
      minThreads: opts.threads,
      maxThreads: opts.threads,
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
    started,
    get threads() {
      return pool?.threads ?? [];
    },
    async close() {
      const p = pool;
      pool = undefined;
      await p?.close({ force: true });
    },
  };
}
