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
export const WIDTH = 640;
export const HEIGHT = 480;
const FRAMES_PER_PHOTO = 8;

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

/** The whole video as one buffer. */
export function cameraVideo(): Buffer {
  const frames: Buffer[] = [];
  for (const file of facePhotos()) {
    const photo = decode(file);
    for (let i = 0; i < FRAMES_PER_PHOTO; i++) {
      frames.push(jpeg.encode({ width: WIDTH, height: HEIGHT, data: frame(photo, i * 3 - 12) }, 75).data);
    }
  }
  return Buffer.concat(frames);
}

/** Writes the video to `file` once (it is the same every time) and answers its absolute path. */
export function cameraVideoFile(file = resolve('test-results/camera/fake-camera.mjpeg')): string {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, cameraVideo());
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
