import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from '../image-bounds.js';

/**
 * The face description of `@vladmandic/face-api`: the dlib ResNet's 128 values (Euclidean
 * distance under about 0.6 is the same person, by its authors' measure), computed on the face as
 * the full-resolution image shows it. Human finds the face on a downscaled copy (fast, and the
 * pose comes from there); a portrait on a document photo is then only a few dozen pixels wide,
 * so its box is scaled back and the face cut from the image as uploaded before it is described.
 * Runs on the same tfjs WASM backend as Human, in the face worker threads only.
 */

const require = createRequire(import.meta.url);

interface Tensor {
  dispose(): void;
}
interface DetectTask {
  withFaceLandmarks(): { withFaceDescriptor(): Promise<{ descriptor: Float32Array } | undefined> };
}
interface FaceApi {
  tf: {
    setWasmPaths(path: string): void;
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor3d(data: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  };
  nets: Record<'tinyFaceDetector' | 'faceLandmark68Net' | 'faceRecognitionNet', { loadFromDisk(dir: string): Promise<void> }>;
  TinyFaceDetectorOptions: new (o: { inputSize: number; scoreThreshold: number }) => object;
  detectSingleFace(input: Tensor, options: object): DetectTask;
  euclideanDistance(a: number[], b: number[]): number;
}

interface Describer {
  /** The 128 values of the face in `box` (pixels of an image `scaledWidth` wide made from `image`), or null when no face is found there. */
  describe(image: Uint8Array, box: [number, number, number, number], scaledWidth: number): Promise<number[] | null>;
  /** 1 − the Euclidean distance (at least 0), so that higher is more alike, as with Human's similarity. */
  similarity(a: number[], b: number[]): number;
}

/** The side of the face cut, around the box, as a share of the box: the detector and the landmarks want the whole head. */
const CROP_MARGIN = 0.6;
/** The crop is scaled to at most this side: the description aligns the face to 150 px anyway. */
const CROP_SIDE = 320;

export async function loadDescriber(wasmDir: string): Promise<Describer> {
  const faceapi = require(join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'dist', 'face-api.node-wasm.js')) as FaceApi;
  faceapi.tf.setWasmPaths(wasmDir);
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  const models = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  await Promise.all([
    faceapi.nets.tinyFaceDetector.loadFromDisk(models),
    faceapi.nets.faceLandmark68Net.loadFromDisk(models),
    faceapi.nets.faceRecognitionNet.loadFromDisk(models),
  ]);
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: 0.3 });
  return {
    async describe(image, [x, y, w, h], scaledWidth) {
      const source = sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate();
      const { data: full, info } = await source.removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const scale = info.width / scaledWidth;
      const left = Math.max(0, Math.floor((x - w * CROP_MARGIN) * scale));
      const top = Math.max(0, Math.floor((y - h * CROP_MARGIN) * scale));
      const right = Math.min(info.width, Math.ceil((x + w * (1 + CROP_MARGIN)) * scale));
      const bottom = Math.min(info.height, Math.ceil((y + h * (1 + CROP_MARGIN)) * scale));
      if (right - left < 8 || bottom - top < 8) return null;
      const crop = await sharp(full, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .extract({ left, top, width: right - left, height: bottom - top })
        .resize({ width: CROP_SIDE, height: CROP_SIDE, fit: 'inside' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const tensor = faceapi.tf.tensor3d(
        new Uint8Array(crop.data.buffer, crop.data.byteOffset, crop.data.length),
        [crop.info.height, crop.info.width, 3],
        'int32',
      );
      try {
        const found = await faceapi.detectSingleFace(tensor, options).withFaceLandmarks().withFaceDescriptor();
        return found ? Array.from(found.descriptor) : null;
      } finally {
        tensor.dispose();
      }
    },
    similarity: (a, b) => Number(Math.max(0, 1 - faceapi.euclideanDistance(a, b)).toFixed(3)),
  };
}
