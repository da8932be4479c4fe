/**
 * The capture endpoints of the Identity Verification Service (/v1/capture/*, see the OpenAPI
 * document), called with the handoff token as `Authorization: Bearer`. XMLHttpRequest rather
 * than fetch: only it reports upload progress. The token is only ever sent in that header.
 */

import { ApiError, OfflineError } from './errors.js';

export { ApiError, OfflineError } from './errors.js';

export type NextStep = { type: 'document' } | { type: 'challenge' } | { type: 'selfie'; step: number } | { type: 'done' };
export type Pose = 'front' | 'left' | 'right';
export interface CaptureStatus {
  verification_id: string;
  stage: 'document' | 'challenge' | 'selfie' | 'complete';
  next_step: NextStep;
  uploaded_steps: number[];
  /** Who asks (absent from servers older than this page). */
  requester?: { name: string };
  /** Where the last screens send the person back, or null. */
  return_url?: string | null;
}
export interface ChallengeStep {
  step: number;
  instruction: string;
  pose?: Pose | null;
}
export interface Challenge {
  challenge_id: string;
  steps: ChallengeStep[];
  /** The yaw thresholds the server judges each frame's pose by; null when it checks no faces. */
  pose_check: { yaw_turn: number; yaw_front: number } | null;
}

export type Progress = (fraction: number) => void;

function send<T>(method: 'GET' | 'POST', path: string, token: string, body?: FormData, onProgress?: Progress): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.responseType = 'text';
    if (onProgress) {
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
    }
    xhr.onerror = () => reject(new OfflineError('no answer'));
    xhr.ontimeout = () => reject(new OfflineError('timed out'));
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(parsed as T);
      const detail =
        parsed && typeof parsed === 'object' && 'detail' in parsed ? String((parsed as { detail: unknown }).detail) : xhr.statusText;
      const retry = Number(xhr.getResponseHeader('retry-after'));
      reject(new ApiError(xhr.status, detail, Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null));
    };
    xhr.send(body ?? null);
  });
}

function imageForm(image: Blob, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  // The step goes first: the server then refuses a taken step before reading the image.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', image, image.type === 'image/png' ? 'photo.png' : 'photo.jpg');
  return form;
}

export function captureApi(token: string) {
  return {
    status: () => send<CaptureStatus>('GET', '/v1/capture/status', token),
    uploadDocument: (image: Blob, onProgress?: Progress) =>
      send<{ stage: string; next_step: NextStep }>('POST', '/v1/capture/document', token, imageForm(image), onProgress),
    challenge: () => send<Challenge>('POST', '/v1/capture/challenge', token),
    uploadFrame: (step: number, image: Blob, onProgress?: Progress) =>
      send<CaptureStatus>('POST', '/v1/capture/selfie', token, imageForm(image, { step: String(step) }), onProgress),
  };
}

export type CaptureApi = ReturnType<typeof captureApi>;
