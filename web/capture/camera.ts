/** Camera access and image preparation, all in the browser: nothing leaves the page but the final JPEG. */

export type Facing = 'environment' | 'user';

/** Why the camera cannot be used; every case falls back to the file picker. */
export type CameraProblem = 'denied' | 'missing' | 'unsupported' | 'busy';

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem) {
    super(problem);
  }
}

export async function openCamera(facing: Facing): Promise<MediaStream> {
  // Only secure pages (https, localhost) have mediaDevices.
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('unsupported');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: facing }, width: { ideal: 1920 }, height: { ideal: 1080 } },
    });
  } catch (err) {
    const name = err instanceof DOMException ? err.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new CameraError('denied');
    if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new CameraError('missing');
    throw new CameraError('busy');
  }
}

export function stopCamera(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Longest side of an uploaded image: sharp enough to read a document, far below the 15 MB limit. */
const MAX_SIDE = 1600;
const QUALITY = 0.88;

function scaled(width: number, height: number, maxSide: number) {
  const k = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
}

function toCanvas(source: CanvasImageSource, width: number, height: number, maxSide: number): HTMLCanvasElement {
  const size = scaled(width, height, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d canvas');
  ctx.drawImage(source, 0, 0, size.width, size.height);
  return canvas;
}

/** The picture as the JPEG that is sent: the very pixels that were checked. */
export function canvasToJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encoding failed'))), 'image/jpeg', QUALITY),
  );
}

/** The video's current frame, unmirrored, on a canvas no larger than `maxSide`. */
export function snapshot(video: HTMLVideoElement, maxSide = MAX_SIDE): HTMLCanvasElement {
  if (!video.videoWidth || !video.videoHeight) throw new Error('the camera has no picture yet');
  return toCanvas(video, video.videoWidth, video.videoHeight, maxSide);
}

/** A chosen file on a canvas (orientation applied) no larger than `maxSide`; UnreadableImage when it is no picture. */
export async function fileToCanvas(file: Blob, maxSide = MAX_SIDE): Promise<HTMLCanvasElement> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new UnreadableImage('unreadable');
  }
  try {
    return toCanvas(bitmap, bitmap.width, bitmap.height, maxSide);
  } finally {
    bitmap.close();
  }
}

/** The video's current frame, unmirrored, as a JPEG no larger than MAX_SIDE. */
export async function grabFrame(video: HTMLVideoElement, maxSide = MAX_SIDE): Promise<Blob> {
  return canvasToJpeg(snapshot(video, maxSide));
}

/** Thrown when a chosen file is not a picture the browser can read (so not one the service could either). */
export class UnreadableImage extends Error {}

/**
 * A chosen file re-encoded as JPEG (orientation applied, metadata dropped, at most MAX_SIDE), so a
 * 20 MB camera original or an odd format still uploads as a small, standard image.
 */
export async function fileToJpeg(file: Blob, maxSide = MAX_SIDE): Promise<Blob> {
  return canvasToJpeg(await fileToCanvas(file, maxSide));
}
