import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

/**
 * A pool of worker threads over one worker module (recognition/document/worker.ts, the OCR;
 * recognition/faces/worker.ts, the face models), started on first use. Each thread starts its
 * engines or models in the background, so startup and /ready never wait for them, and a process
 * that never uses the pool (the operator CLI, tools) never starts a thread. The module is named by
 * its URL only: a value imported from it would load it, and start its engines, on the importing
 * thread (.dependency-cruiser.cjs, worker-threads-load-their-own-module).
 *
 * Every task runs under a deadline (docs/identity.md, "Bounded identity work"): past it the thread running
 * it is terminated, whatever it is doing, and a fresh one takes its place.
 */
export interface WorkerPool {
  /** The pool, started now if it was not (idempotent). */
  started(): Piscina;
  /**
   * Runs one task on a thread, one task per thread at a time; rejects with WorkTimedOut past
   * `deadlineMs` from the moment a thread took it (the wait for a free thread does not count; the
   * thread is then terminated and replaced) and with WorkerCrashed when its thread ended under it.
   * `name` picks an export of the worker module other than its default.
   */
  run<T>(task: unknown, deadlineMs: number, name?: string): Promise<T>;
  /**
   * As run, with the task made only once a thread is free for it (a verification's images are
   * loaded then, not while it waits behind others).
   */
  runMade<T>(makeTask: () => unknown, deadlineMs: number, name?: string): Promise<T>;
  /** Tasks running on a thread now, and tasks waiting for one (the metrics' face gauges). */
  readonly running: number;
  readonly waiting: number;
  /** The pool's threads; none before it starts. */
  readonly threads: readonly { terminate(): Promise<number> }[];
  /** Ends the threads at once, running tasks included. */
  close(): Promise<void>;
}

/** A task that passed its deadline; its thread was terminated. */
export class WorkTimedOut extends Error {
  constructor(
    readonly work: string,
    readonly ms: number,
  ) {
    super(`${work} took longer than ${ms} ms`);
  }
}

/** The thread running a task ended under it: killed, out of memory, or exited. */
export class WorkerCrashed extends Error {
  constructor(
    readonly work: string,
    cause: unknown,
  ) {
    super(`the ${work} worker ended during the task: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Whether piscina rejected a task because its thread went away rather than because the task
 * threw: the thread exited (terminated, or process.exit inside it), ran out of its heap
 * (resourceLimits), or could not start.
 */
function isThreadEnd(err: unknown): boolean {
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  return (
    (typeof message === 'string' && message.startsWith('worker exited with code')) ||
    code === 'ERR_WORKER_OUT_OF_MEMORY' ||
    code === 'ERR_WORKER_INIT_FAILED'
  );
}

/**
 * The V8 heap one thread may hold. The pixels (sharp's buffers) and the engines' WebAssembly
 * memory live outside it; what this bounds is JavaScript working over an image's samples, which
 * then ends its own thread (ERR_WORKER_OUT_OF_MEMORY), never the process.
 */
const THREAD_HEAP_MB = 512;

export function createWorkerPool(opts: {
  /** `import.meta.url` of a module in the worker's folder: the pool runs `./worker` beside it. */
  beside: string;
  threads: number;
  nice?: number;
  /** What the threads do, as errors and logs name it ("document reading", "face analysis"). */
  work: string;
  /** The V8 heap of one thread, in MB (THREAD_HEAP_MB unless given). */
  heapMb?: number;
}): WorkerPool {
  // From the compiled build the worker is worker.js; from source (tsx, vitest) it is worker.ts and
  // its thread needs the tsx loader too.
  const source = import.meta.url.endsWith('.ts');
  let pool: Piscina | undefined;
  let free = opts.threads;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  // A freed thread goes straight to the next waiter, if any.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  // Tasks handed to piscina. A replacement thread (after a crash or a deadline) takes its task only
  // once it has started; until then the task waits in piscina's queue. So what runs on a thread is
  // counted from the threads themselves: piscina announces each started thread (workerCreate),
  // whose `currentUsage` is above 0 while it holds a task (Infinity for one with an abort signal,
  // as every task here has); an ended thread's id reads -1 and it holds none. A thread holds one
  // task at a time (acquire).
  let handed = 0;
  let threadsUp: { id: number; currentUsage: number }[] = [];
  const onThreads = () => threadsUp.filter((thread) => thread.currentUsage > 0).length;
  async function runMade<T>(makeTask: () => unknown, deadlineMs: number, name?: string): Promise<T> {
    await acquire();
    try {
      const task = await makeTask();
      // Aborting a running task makes piscina terminate its thread and start a replacement.
      const signal = AbortSignal.timeout(deadlineMs);
      handed++;
      try {
        return (await started().run(task, { signal, ...(name ? { name } : {}) })) as T;
      } catch (err) {
        if (signal.aborted) throw new WorkTimedOut(opts.work, deadlineMs);
        if (isThreadEnd(err)) throw new WorkerCrashed(opts.work, err);
        throw err;
      } finally {
        handed--;
      }
    } finally {
      release();
    }
  }
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
      resourceLimits: { maxOldGenerationSizeMb: opts.heapMb ?? THREAD_HEAP_MB },
    });
    // A thread that dies between tasks is replaced by the pool; its error must not crash the process.
    pool.on('error', () => {});
    pool.on('workerCreate', (thread: { id: number; currentUsage: number }) => {
      threadsUp = [...threadsUp.filter((t) => t.id !== -1), thread];
    });
    return pool;
  };
  return {
    started,
    run<T>(task: unknown, deadlineMs: number, name?: string): Promise<T> {
      return runMade<T>(() => task, deadlineMs, name);
    },
    runMade,
    get running() {
      return onThreads();
    },
    get waiting() {
      return waiting.length + handed - onThreads();
    },
    get threads() {
      return pool?.threads ?? [];
    },
    async close() {
      const p = pool;
      pool = undefined;
      threadsUp = [];
      await p?.close({ force: true });
    },
  };
}
