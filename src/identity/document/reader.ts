/**
 * Reads the machine-readable zone from document photos (README, "Document reading"): the front
 * end of a one-thread pool (worker.ts) that finds the zone, prepares it and runs the OCR, so no
 * pixel of it is touched on the API's event loop. The thread, and the OCR engines in it, start in
 * the background like the face models.
 */
import { createWorkerPool } from '../worker-pool.js';
import type { CardResult, CardTask, ReadResult, ReadTask } from './worker.js';

// Types only: a value imported from worker.ts would load it, and start its two OCR engines (each a
// thread of its own), on the importing thread, whose message ports then keep the process alive
// after close() (measured: `npm run documents:read-rate` never exited).
export type { CardResult, DocumentReading, PassTrace, ReadResult } from './worker.js';

export interface DocumentReader {
  start(): void;
  /** Reads the images in order (the back of a card first) and stops at the first zone that holds. */
  read(images: Uint8Array[], opts?: { trace?: boolean }): Promise<ReadResult>;
  /**
   * Reads a card sent as two sides: the zone as `read([back, front])` does, plus where it was read
   * and the front's printed document numbers (README, "Document reading", one document per verification).
   */
  readCard(sides: { front: Uint8Array; back: Uint8Array }, opts?: { trace?: boolean }): Promise<CardResult>;
  close(): Promise<void>;
}

export function createDocumentReader(opts: { nice?: number } = {}): DocumentReader {
  // One thread: its two engines already take both cores of a small machine, and the pipeline
  // decides one verification at a time per instance.
  const pool = createWorkerPool({ beside: import.meta.url, threads: 1, nice: opts.nice });
  return {
    start: () => void pool.started(),
    read: (images, readOpts = {}) => pool.started().run({ images, trace: readOpts.trace } satisfies ReadTask) as Promise<ReadResult>,
    readCard: ({ front, back }, readOpts = {}) =>
      pool.started().run({ front, back, trace: readOpts.trace } satisfies CardTask, { name: 'readCard' }) as Promise<CardResult>,
    close: () => pool.close(),
  };
}
