import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeForFaces } from './decode.js';
import { loadDescriber } from './descriptor.js';
import { humanConfig } from './human-config.js';
import type { FaceSignal, ImageAnalysis } from './signals.js';

/**
 * Face analysis with `@vladmandic/human` on the tfjs WASM backend (models and .wasm files ship in
 * the npm packages; nothing is downloaded). Loaded inside a worker thread (see worker.ts) or by
 * the separation script; never on the API's event loop.
 */

const require = createRequire(import.meta.url);

/** The part of Human's API used here (its bundled types need the DOM library). */
interface HumanFace {
  score: number;
  box: [number, number, number, number];
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  real?: number;
  live?: number;
  embedding?: number[];
}
interface HumanInstance {
  tf: { tensor4d(data: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): unknown; dispose(t: unknown): void };
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: HumanFace[] }>;
  match: { similarity(a: number[], b: number[]): number };
}

/** Longest image side fed to the models: larger uploads are downscaled first (detection runs at 256 px anyway). */
const DEFAULT_MAX_SIDE = 640;

/**
 * In Node the WASM build loads models with `fetch`, which cannot read `file://` URLs: serve those
 * from disk and leave every other URL to the real fetch. Installed once per thread.
 */
function serveFileUrls(): void {
  const g = globalThis as { fetch: typeof fetch; __facesFileFetch?: boolean };
  if (g.__facesFileFetch) return;
  const realFetch = g.fetch;
  g.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    const bytes = await readFile(fileURLToPath(url));
    return new Response(bytes, {
      status: 200,
      headers: { 'content-type': url.endsWith('.json') ? 'application/json' : 'application/octet-stream' },
    });
  }) as typeof fetch;
  g.__facesFileFetch = true;
}

interface FaceAnalyzer {
  /** Faces in one image, downscaled first so its longest side is at most `maxSide`. */
  analyze(image: Uint8Array, maxSide?: number): Promise<ImageAnalysis & { embedding: number[] | null; descriptor: number[] | null }>;
  /** Human's `faceres` embeddings compared (0..1, higher is more alike); embeddings exist only when loaded with `faceres`. */
  similarity(a: number[], b: number[]): number;
  /** face-api's descriptors compared: 1 − Euclidean distance (higher is more alike). */
  descriptorSimilarity(a: number[], b: number[]): number;
}

/**
 * Loads the models (a few seconds) and answers an analyzer. The face match compares face-api's
 * descriptors (descriptor.ts): on the fixtures it separates the people better than Human's
 * `faceres`, most of all for a portrait on a photographed document (docs/faces.md, "Face checks").
 * `faceres` is computed only when asked (`npm run faces:separation` compares the two).
 */
export async function loadFaceAnalyzer(opts: { faceres?: boolean } = {}): Promise<FaceAnalyzer> {
  serveFileUrls();
  // The package's exports map has no "./" subpaths, so the WASM build is loaded by path.
  const distDir = dirname(require.resolve('@vladmandic/human'));
  const { Human } = require(join(distDir, 'human.node-wasm.js')) as { Human: new (config: object) => HumanInstance };
  const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';
  const human = new Human(
    humanConfig({
      wasmPath: wasmDir,
      modelBasePath: pathToFileURL(join(distDir, '..', 'models') + '/').href,
      async: false,
      signals: true,
      faceres: opts.faceres ?? false,
    }),
  );
  await human.load();
  const describer = await loadDescriber(wasmDir);
  return {
    async analyze(image, maxSide = DEFAULT_MAX_SIDE) {
      // RGB bytes for the tensor, alpha dropped; bounded in pixels before anything is decoded.
      const { data, info } = await decodeForFaces(image, maxSide);
      const tensor = human.tf.tensor4d(new Uint8Array(data.buffer, data.byteOffset, data.length), [1, info.height, info.width, 3], 'int32');
      let faces: HumanFace[];
      try {
        faces = (await human.detect(tensor)).face;
      } finally {
        human.tf.dispose(tensor);
      }
      // Largest face first: it is the one compared and checked against the pose.
      faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
      const round = (n: number | undefined, d = 3) => (n === undefined || !Number.isFinite(n) ? null : Number(n.toFixed(d)));
      const signals: FaceSignal[] = faces.map((f) => ({
        score: round(f.score)!,
        box: f.box.map((n) => Math.round(n)) as [number, number, number, number],
        yaw: round(f.rotation?.angle.yaw),
        pitch: round(f.rotation?.angle.pitch),
        roll: round(f.rotation?.angle.roll),
        antispoof: round(f.real),
        liveness: round(f.live),
      }));
      // The largest face described again from the image as uploaded (see descriptor.ts).
      const descriptor = faces[0] ? await describer.describe(image, faces[0].box, info.width) : null;
      return {
        width: info.width,
        height: info.height,
        face_count: faces.length,
        faces: signals,
        embedding: faces[0]?.embedding ?? null,
        descriptor,
      };
    },
    similarity: (a, b) => Number(human.match.similarity(a, b).toFixed(3)),
    descriptorSimilarity: describer.similarity,
  };
}
