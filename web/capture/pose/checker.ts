import { signal } from '@preact/signals';
import { humanConfig } from '../../../src/recognition/faces/human-config.js';
import type { FrameFaces } from './rule.js';

/**
 * Face and pose detection in the browser with the models the service itself uses
 * (`@vladmandic/human`, face detector and mesh only, on the tfjs WASM backend like the server, so
 * yaw is measured the same way). Everything is served by this server under
 * /capture/models/<human version>/ (cached for good) and loaded only after the page is up; the
 * library is its own chunk, outside the page's first bundle. When anything fails the page works
 * as before and says the check could not run.
 */
interface PoseChecker {
  /** Faces in `picture`, downscaled first to at most ANALYSIS_SIDE (the service's FACE_MAX_SIDE default). */
  analyze(picture: HTMLCanvasElement): Promise<FrameFaces>;
}

type CheckerState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; checker: PoseChecker } | { status: 'failed' };

export const checkerState = signal<CheckerState>({ status: 'idle' });

const ANALYSIS_SIDE = 640;

declare const __HUMAN_VERSION__: string;

function downscaled(picture: HTMLCanvasElement): HTMLCanvasElement {
  const k = Math.min(1, ANALYSIS_SIDE / Math.max(picture.width, picture.height));
  if (k === 1) return picture;
  const small = document.createElement('canvas');
  small.width = Math.round(picture.width * k);
  small.height = Math.round(picture.height * k);
  small.getContext('2d')!.drawImage(picture, 0, 0, small.width, small.height);
  return small;
}

async function load(): Promise<PoseChecker> {
  const { Human } = await import('@vladmandic/human');
  // The files sit under the library's version, so they can be cached for good.
  const base = `${location.origin}/capture/models/${__HUMAN_VERSION__}/`;
  const human = new Human(humanConfig({ wasmPath: base, modelBasePath: base, async: true, signals: false }));
  if (human.version !== __HUMAN_VERSION__) throw new Error(`face library ${human.version}, built for ${__HUMAN_VERSION__}`);
  await human.load();
  // Human logs a model it could not fetch and carries on; without both there is no check to make.
  const loaded = new Set(
    human.models
      .stats()
      .modelStats.filter((m) => m.loaded)
      .map((m) => m.name),
  );
  if (!loaded.has('blazeface') || !loaded.has('facemesh')) throw new Error('the face models did not load');
  return {
    async analyze(picture) {
      const input = downscaled(picture);
      const result = await human.detect(input);
      if (result.error) throw new Error(result.error);
      const faces = result.face
        .map((f) => ({ box: f.box as [number, number, number, number], yaw: f.rotation?.angle.yaw ?? null }))
        .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
      return { width: input.width, faces };
    },
  };
}

/** Starts loading once (later calls do nothing); the state says when it is ready or failed. */
export function loadPoseChecker(): void {
  if (checkerState.value.status !== 'idle') return;
  checkerState.value = { status: 'loading' };
  load().then(
    (checker) => (checkerState.value = { status: 'ready', checker }),
    () => (checkerState.value = { status: 'failed' }),
  );
}
