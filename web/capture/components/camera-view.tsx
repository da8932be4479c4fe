import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CameraError, openCamera, stopCamera, type CameraProblem, type Facing } from '../camera.js';
import { phrase, type Phrase } from '../i18n/catalogue.js';
import { t } from '../i18n/language.js';

type CameraState = { status: 'opening' } | { status: 'live' } | { status: 'failed'; problem: CameraProblem };

/** Opens the camera while the component is shown and stops it when it goes away. */
export function useCamera(facing: Facing, enabled: boolean): { state: CameraState; video: RefObject<HTMLVideoElement> } {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>({ status: 'opening' });
  useEffect(() => {
    if (!enabled) return;
    let stream: MediaStream | null = null;
    let gone = false;
    setState({ status: 'opening' });
    openCamera(facing).then(
      (s) => {
        if (gone) return stopCamera(s);
        stream = s;
        const el = video.current;
        if (!el) return;
        el.srcObject = s;
        const live = () => !gone && setState({ status: 'live' });
        if (el.readyState >= 2 && el.videoWidth) live();
        else el.addEventListener('loadeddata', live, { once: true });
        void el.play().catch(() => {});
      },
      (err: unknown) => !gone && setState({ status: 'failed', problem: err instanceof CameraError ? err.problem : 'busy' }),
    );
    return () => {
      gone = true;
      stopCamera(stream);
    };
  }, [facing, enabled]);
  return { state, video };
}

export const CAMERA_PROBLEM: Record<CameraProblem, Phrase> = {
  denied: phrase('camera.denied'),
  missing: phrase('camera.missing'),
  unsupported: phrase('camera.unsupported'),
  busy: phrase('camera.busy'),
};

/** The live picture, with an optional outline drawn over it. */
export function CameraView(props: {
  video: RefObject<HTMLVideoElement>;
  mirror?: boolean;
  label: string;
  children?: ComponentChildren;
  live: boolean;
}) {
  return (
    <div class={`camera${props.live ? '' : ' camera-waiting'}`}>
      <video ref={props.video} class={props.mirror ? 'mirror' : undefined} autoplay muted playsInline aria-label={props.label} />
      {props.children}
      {!props.live && <p class="camera-wait">{t('camera.starting')}</p>}
    </div>
  );
}

/** An oval to put the face in. */
export function FaceGuide() {
  return (
    <svg class="guide" viewBox="0 0 100 75" preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      <ellipse cx="50" cy="37.5" rx="19" ry="27" fill="none" stroke="#fff" stroke-width="0.8" stroke-dasharray="4 3" />
    </svg>
  );
}

/** A file picker styled as a button; `capture` asks phones to open the camera app directly (without it they offer the library too). */
export function PhotoPicker(props: {
  label: string;
  capture?: Facing | undefined;
  onFile: (file: File) => void;
  primary?: boolean;
  disabled?: boolean;
}) {
  return (
    <label class={`button${props.primary ? '' : ' secondary'}${props.disabled ? ' disabled' : ''}`}>
      {props.label}
      <input
        class="visually-hidden"
        type="file"
        accept="image/*"
        capture={props.capture}
        disabled={props.disabled}
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          input.value = '';
          if (file) props.onFile(file);
        }}
      />
    </label>
  );
}
