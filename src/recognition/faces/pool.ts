import { createWorkerPool, WorkTimedOut } from '../worker-pool.js';
import type { FaceTask, FaceTaskResult } from './worker.js';

/** Face inference off the API's event loop: a pool of worker threads, each with its models loaded once. */
export interface FacePool {
  /** Starts the workers (idempotent); the first analysis starts them too. */
  start(): void;
  /**
   * Analyses the document and the frames (document first, read by `load` once a worker is free, so
   * queued verifications hold no image bytes); rejects on a failed model load, with WorkerCrashed when its
   * worker ended under it, and with FaceAnalysisTimeout past the deadline (the worker is then terminated and replaced).
   */
  analyze(load: () => Promise<Uint8Array[]>): Promise<FaceTaskResult>;
  /** Analyses running in a worker now (tests wait for one before ending its worker). */
  readonly running: number;
  /** Analyses waiting for a free worker (the metrics report it). */
  readonly waiting: number;
  /** The pool's worker threads (tests end one mid-job to check that a crash is a pipeline fault). */
  readonly threads: readonly { terminate(): Promise<number> }[];
  close(): Promise<void>;
}

/** The face analysis passed its deadline; its worker was terminated. */
export class FaceAnalysisTimeout extends WorkTimedOut {
  constructor(ms: number) {
    super('face analysis', ms);
  }
}

/**
 * The workers start with start() (the server calls it when its job runner starts) or with the
 * first analysis; each loads the models in the background (a few seconds), so startup and /ready
 * never wait for them, and a job that comes earlier waits inside its worker. A process that runs
 * no jobs (the operator CLI, tools) never starts a worker.
 */
export function createFacePool(opts: { workers: number; timeoutMs: number; maxSide: number; nice?: number }): FacePool {
  const pool = createWorkerPool({ beside: import.meta.url, threads: opts.workers, nice: opts.nice, work: 'face analysis' });
  return {
    start() {
      pool.started();
    },
    async analyze(load) {
      // One analysis per worker at a time, queued by the pool: the images are loaded once a worker
      // is free, and the time limit counts the run, not the wait behind other verifications.
      try {
        return await pool.runMade<FaceTaskResult>(
          async (): Promise<FaceTask> => ({ images: await load(), maxSide: opts.maxSide }),
          opts.timeoutMs,
        );
      } catch (err) {
        if (err instanceof WorkTimedOut) throw new FaceAnalysisTimeout(opts.timeoutMs);
        throw err;
      }
    },
    get running() {
      return pool.running;
    },
    get waiting() {
      return pool.waiting;
    },
    get threads() {
      return pool.threads;
    },
    close: () => pool.close(),
  };
}
