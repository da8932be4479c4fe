import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { loadFaceAnalyzer } from './analyzer.js';
import type { ImageAnalysis } from './signals.js';

// On Linux a nice value belongs to a thread, and pid 0 names the calling one: this worker thread
// (and any thread it starts) yields the CPU to the API's event loop whenever both want it.
try {
  const nice = (workerData as { nice?: number } | undefined)?.nice ?? 10;
  if (nice > 0) setPriority(0, nice);
} catch {
  // Not permitted or not supported here: inference simply competes at normal priority.
}

// libvips' operation cache is shared by the process and only holds memory here: no operation is
// repeated on the same image (docs/identity.md, "Bounded identity work").
sharp.cache(false);

/**
 * The face worker (one per thread of the pool in pool.ts). The models start loading as soon as
 * the thread starts, in the background; a task that arrives earlier waits for them.
 */
const analyzer = loadFaceAnalyzer();
// A failed load is reported by every task (as a pipeline fault), not as an unhandled rejection.
analyzer.catch(() => {});

export interface FaceTask {
  /** The document first, then the frames in step order. */
  images: Uint8Array[];
  maxSide: number;
}

export interface FaceTaskResult {
  images: ImageAnalysis[];
  /** similarity[i][j] between the largest faces of images i and j (null when either has none); i < j only. */
  similarity: (number | null)[][];
}

export default async function analyzeVerification(task: FaceTask): Promise<FaceTaskResult> {
  const faces = await analyzer;
  const analysed: Awaited<ReturnType<Awaited<typeof analyzer>['analyze']>>[] = [];
  for (const image of task.images) analysed.push(await faces.analyze(image, task.maxSide));
  const similarity = analysed.map((a, i) =>
    analysed.map((b, j) => (j <= i || !a.descriptor || !b.descriptor ? null : faces.descriptorSimilarity(a.descriptor, b.descriptor))),
  );
  return { images: analysed.map(({ embedding: _embedding, descriptor: _descriptor, ...rest }) => rest), similarity };
}
