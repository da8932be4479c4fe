/**
 * The one configuration of `@vladmandic/human` used by the service (analyzer.ts, in a worker)
 * and by the capture page (web/capture/pose/checker.ts, in the browser): the same detector and
 * mesh, so a face, its box and its yaw are found the same way on both sides and the page's
 * "turn a little more" agrees with the service's verdict. Only what differs is a parameter:
 * where the files are, whether detection runs async, and the models the service alone needs
 * (antispoof and liveness for the signals). Pure data: no
 * Node or DOM import, so both builds take it.
 */
interface HumanSetup {
  /** Where the tfjs WASM binaries are (a directory path or URL ending in "/"). */
  wasmPath: string;
  /** Where the model files are (a URL ending in "/"). */
  modelBasePath: string;
  async: boolean;
  /** The service's extra models: antispoof and liveness. */
  signals: boolean;
  /**
   * Human's own face descriptor (`faceres`): the service compares faces with face-api's
   * (descriptor.ts), so only `npm run faces:separation`, which measures both, asks for it.
   */
  faceres?: boolean;
}

export function humanConfig({ wasmPath, modelBasePath, async, signals, faceres = false }: HumanSetup) {
  return {
    backend: 'wasm' as const,
    wasmPath,
    modelBasePath,
    debug: false,
    async,
    warmup: 'none' as const,
    // Every image is judged on its own: no result is reused from a "similar" earlier input.
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: false, maxDetected: 5, minConfidence: 0.5, return: false },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: faceres },
      emotion: { enabled: false },
      antispoof: { enabled: signals },
      liveness: { enabled: signals },
      attention: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}
