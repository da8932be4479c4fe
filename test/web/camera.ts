/**
 * The fake camera for browser tests. Chromium plays an `.mjpeg` file (JPEG frames one after
 * another) as a camera with `--use-file-for-fake-video-capture=<file>`; it takes the frame size
 * from the first frame, so every frame here is 640×480: a face photo from test/fixtures/camera/
 * on a plain background, drifting a few pixels per frame so that no two captured frames are
 * byte-identical (the pipeline declines identical selfie frames as replayed).
 *
 *   npx tsx test/web/camera.ts out.mjpeg    writes the video (for trying the page by hand)
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jpeg from 'jpeg-js';

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/camera');
/**
 * A photo of the same person with the head turned: Human measures its yaw at -0.41 (toward the
 * image's right edge, the person's own left), -0.42 mirrored the other way (docs/faces.md, "Poses: which way is left"; measured with the service's analyzer).
 */
export const TURNED = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/faces/person-a-2.jpg');

export type Pose = 'front' | 'left' | 'right';
export const WIDTH = 640;
export const HEIGHT = 480;
/** About 1.3 s per photo at the fake camera's 30 frames per second: long enough for a pose to "hold". */
const FRAMES_PER_PHOTO = 40;

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The face photos the video is made of (same person, frontal). */
export function facePhotos(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.jpg'))
    .sort()
    .map((f) => join(FIXTURES, f));
}

function decode(file: string): Rgba {
  return jpeg.decode(readFileSync(file), { useTArray: true, formatAsRGBA: true });
}

/** The photo mirrored left to right: a head turned to one side becomes turned to the other. */
function mirrored(photo: Rgba): Rgba {
  const data = new Uint8Array(photo.data.length);
  for (let y = 0; y < photo.height; y++)
    for (let x = 0; x < photo.width; x++) {
      const s = (y * photo.width + x) * 4;
      const t = (y * photo.width + (photo.width - 1 - x)) * 4;
      data.set(photo.data.subarray(s, s + 4), t);
    }
  return { width: photo.width, height: photo.height, data };
}

/** A photo showing `pose` (the person's own left or right; the turned photo turns to the person's left). */
function posed(pose: Pose, index = 0): Rgba {
  if (pose === 'left') return decode(TURNED);
  if (pose === 'right') return mirrored(decode(TURNED));
  const photos = facePhotos();
  return decode(photos[index % photos.length]!);
}

/** One 640×480 frame: `photo` scaled to 90% of the height (nearest neighbour), centred, moved right by `dx`. */
function frame(photo: Rgba, dx: number): Uint8Array {
  const out = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let i = 0; i < out.length; i += 4) {
    out[i] = 214;
    out[i + 1] = 222;
    out[i + 2] = 230;
    out[i + 3] = 255;
  }
  const h = Math.round(HEIGHT * 0.9);
  const w = Math.round((photo.width * h) / photo.height);
  const left = Math.round((WIDTH - w) / 2) + dx;
  const top = Math.round((HEIGHT - h) / 2);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(photo.height - 1, Math.floor((y * photo.height) / h));
    for (let x = 0; x < w; x++) {
      const tx = left + x;
      if (tx < 0 || tx >= WIDTH) continue;
      const sx = Math.min(photo.width - 1, Math.floor((x * photo.width) / w));
      const s = (sy * photo.width + sx) * 4;
      const t = ((top + y) * WIDTH + tx) * 4;
      out[t] = photo.data[s]!;
      out[t + 1] = photo.data[s + 1]!;
      out[t + 2] = photo.data[s + 2]!;
    }
  }
  return out;
}

/** A 640×480 JPEG still of photo `index` (a document or selfie file for the file-picker path). */
export function still(index = 0, dx = 0): Buffer {
  const photos = facePhotos();
  const photo = decode(photos[index % photos.length]!);
  return jpeg.encode({ width: WIDTH, height: HEIGHT, data: frame(photo, dx) }, 85).data;
}

/** A 640×480 JPEG still showing `pose` (for the file-picker path), moved right by `dx`. */
export function posedStill(pose: Pose, index = 0, dx = 0): Buffer {
  return jpeg.encode({ width: WIDTH, height: HEIGHT, data: frame(posed(pose, index), dx) }, 85).data;
}

/**
 * The whole video as one buffer: by default every pose in turn (front, left, front, right, front),
 * so each challenge step's pose comes round within seconds; `only` films one pose throughout.
 */
export function cameraVideo(only?: Pose): Buffer {
  const sequence: Rgba[] = only ? [posed(only)] : [posed('front', 0), posed('left'), posed('front', 1), posed('right'), posed('front', 2)];
  const frames: Buffer[] = [];
  for (const photo of sequence) {
    for (let i = 0; i < FRAMES_PER_PHOTO; i++) {
      frames.push(jpeg.encode({ width: WIDTH, height: HEIGHT, data: frame(photo, (i % 16) * 2 - 16) }, 75).data);
    }
  }
  return Buffer.concat(frames);
}

/** Writes the video to a file once per kind (it is the same every time) and answers its absolute path. */
export function cameraVideoFile(only?: Pose): string {
  const file = resolve(`test-results/camera/fake-camera-v2-${only ?? 'all'}.mjpeg`);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, cameraVideo(only));
  }
  return file;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: npx tsx test/web/camera.ts <out.mjpeg>');
    process.exit(2);
  }
  writeFileSync(out, cameraVideo());
  console.log(`wrote ${out}: ${facePhotos().length * FRAMES_PER_PHOTO} frames of ${WIDTH}×${HEIGHT}`);
}
