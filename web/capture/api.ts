/**
 * The capture endpoints of the Identity Verification Service (/v1/capture/*, see the OpenAPI
 * document), called with the handoff token as `Authorization: Bearer`. XMLHttpRequest rather
 * than fetch: only it reports upload progress. The token is only ever sent in that header.
 */

import type { Answer, operations } from '../shared/api.js';
import { ApiError, OfflineError } from './errors.js';

export { ApiError, OfflineError } from './errors.js';

/** The answers' shapes come from the server's OpenAPI document (types only: nothing is added to the page's bundle). */
type CaptureStatus = Answer<operations['captureStatus']>;
export type NextStep = CaptureStatus['next_step'];
export type Challenge = Answer<operations['getChallenge']>;
export type ChallengeStep = Challenge['steps'][number];
export type Pose = NonNullable<ChallengeStep['pose']>;

export type FrameSource = 'camera' | 'file';

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
      const code =
        parsed && typeof parsed === 'object' && 'code' in parsed && typeof (parsed as { code: unknown }).code === 'string'
          ? (parsed as { code: string }).code
          : null;
      const retry = Number(xhr.getResponseHeader('retry-after'));
      reject(new ApiError(xhr.status, detail, Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null, code));
    };
    xhr.send(body ?? null);
  });
}

const fileName = (image: Blob, name: string) => `${name}.${image.type === 'image/png' ? 'png' : 'jpg'}`;

function imageForm(image: Blob, fields: Record<string, string> = {}, back?: Blob): FormData {
  const form = new FormData();
  // The step goes first: the server then refuses a taken step before reading the image.
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', image, fileName(image, 'photo'));
  // An ID card's other side (the one with the machine-readable lines) travels in the same upload.
  if (back) form.append('back', back, fileName(back, 'back'));
  return form;
}

export function captureApi(token: string) {
  return {
    status: () => send<CaptureStatus>('GET', '/v1/capture/status', token),
    /** The document: `image` is the side with the portrait, `back` an ID card's other side. */
    uploadDocument: (image: Blob, back: Blob | undefined, onProgress?: Progress) =>
      send<{ stage: string; next_step: NextStep }>('POST', '/v1/capture/document', token, imageForm(image, {}, back), onProgress),
    challenge: () => send<Challenge>('POST', '/v1/capture/challenge', token),
    /** `source` `file`: chosen from the device because no camera could be used (the server stores and shows it). */
    uploadFrame: (step: number, image: Blob, source: FrameSource, onProgress?: Progress) =>
      send<CaptureStatus>('POST', '/v1/capture/selfie', token, imageForm(image, { step: String(step), source }), onProgress),
    declineConsent: () => send<{ verification_id: string; consent_declined_at: string }>('POST', '/v1/capture/consent/decline', token),
  };
}

export type CaptureApi = ReturnType<typeof captureApi>;
