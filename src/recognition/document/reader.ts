/**
 * Reads the machine-readable zone from document photos (docs/document-reading.md, "Document reading"): the front
 * end of a one-thread pool (worker.ts) that finds the zone, prepares it and runs the OCR, so no
 * pixel of it is touched on the API's event loop. The thread, and the OCR engines in it, start in
 * the background like the face models.
 */
import { createWorkerPool, WorkerCrashed, WorkTimedOut } from '../worker-pool.js';
import type { CardResult, CardTask, ReadResult, ReadTask } from './worker.js';

// Types only: a value imported from worker.ts would load it, and start its two OCR engines (each a
// thread of its own), on the importing thread, whose message ports then keep the process alive
// after close() (measured: `npm run documents:read-rate` never exited).
export type { CardResult, DocumentReading, PassTrace, ReadResult } from './worker.js';

export interface DocumentReader {
  start(): void;
  /**
   * Reads the images in order (the back of a card first) and stops at the first zone that holds;
   * rejects with DocumentReadTimeout past the deadline (the thread is then terminated and
   * replaced) and with WorkerCrashed when the thread ended under it.
   */
  read(images: Uint8Array[], opts?: { trace?: boolean }): Promise<ReadResult>;
  /**
   * Reads a card sent as two sides: the zone as `read([back, front])` does, plus where it was read
   * and the front's printed document numbers (docs/document-reading.md, "Document reading", one document per verification).
   */
  readCard(sides: { front: Uint8Array; back: Uint8Array }, opts?: { trace?: boolean }): Promise<CardResult>;
  close(): Promise<void>;
}

/** The reading passed its deadline; its thread was terminated. */
export class DocumentReadTimeout extends WorkTimedOut {
  constructor(ms: number) {
    super('document reading', ms);
  }
}

/**
 * One read's deadline when none is configured (DOCUMENT_READ_TIMEOUT_MS, the same default): about
 * four times the slowest document measured (3.1 s, docs/document-reading.md "Document reading"); the engines' start
 * in a fresh thread is not counted.
 */
export const DEFAULT_READ_DEADLINE_MS = 12_000;

/** Starting a thread's two engines: seconds on a busy machine; past this the start is taken as failed. */
const WARM_UP_DEADLINE_MS = 120_000;

export function createDocumentReader(opts: { nice?: number; deadlineMs?: number } = {}): DocumentReader {
  // One thread: its two engines already take both cores of a small machine, and the pipeline
  // decides one verification at a time per instance.
  const pool = createWorkerPool({ beside: import.meta.url, threads: 1, nice: opts.nice, work: 'document reading' });
  const deadlineMs = opts.deadlineMs ?? DEFAULT_READ_DEADLINE_MS;
  // The thread's engines, started outside any reading's deadline (worker.ts, warmUp); a thread
  // terminated past a deadline or crashed is replaced by one that must start them again.
  let warm: Promise<void> | undefined;
  const warmed = () => {
    warm ??= pool.run<void>({}, WARM_UP_DEADLINE_MS, 'warmUp').catch((err: unknown) => {
      warm = undefined;
      throw err;
    });
    return warm;
  };
  async function timed<T>(task: unknown, name?: string): Promise<T> {
    await warmed();
    try {
      return await pool.run<T>(task, deadlineMs, name);
    } catch (err) {
      if (err instanceof WorkTimedOut || err instanceof WorkerCrashed) warm = undefined;
      throw err instanceof WorkTimedOut ? new DocumentReadTimeout(deadlineMs) : err;
    }
  }
  return {
    start: () => void pool.started(),
    read: (images, readOpts = {}) => timed<ReadResult>({ images, trace: readOpts.trace } satisfies ReadTask),
    readCard: ({ front, back }, readOpts = {}) => timed<CardResult>({ front, back, trace: readOpts.trace } satisfies CardTask, 'readCard'),
    close: () => pool.close(),
  };
}
