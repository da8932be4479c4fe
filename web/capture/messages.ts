import { MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH } from '../../src/identity/uploads/limits.js';
import type { DocumentProblem } from './quality/document-check.js';
import { ApiError, OfflineError } from './errors.js';

/** What the page does after a failed call, and what it says in plain words. */
type Failure =
  | { kind: 'expired' }
  | { kind: 'resume' }
  | { kind: 'retake'; message: string }
  | { kind: 'wait'; seconds: number }
  | { kind: 'offline' }
  | { kind: 'broken'; message: string };

export type Subject = 'document' | 'frame' | 'none';

const what = (subject: Subject) => (subject === 'document' ? 'the photo of your document' : 'the photo of your face');

/**
 * Classifies an error of a capture call (statuses as documented for /v1/capture/*): 401 means
 * the link expired or was replaced, 409 that the server is further along than this page (resume
 * from the status), 413/415/422 that the image must be taken again, 429 to wait Retry-After.
 */
export function classify(err: unknown, subject: Subject): Failure {
  if (err instanceof OfflineError) return { kind: 'offline' };
  if (!(err instanceof ApiError))
    return { kind: 'broken', message: 'Something went wrong on this page. Reload it to continue where you left off.' };
  switch (err.status) {
    case 401:
      return { kind: 'expired' };
    case 409:
      return { kind: 'resume' };
    case 413:
      return {
        kind: 'retake',
        message: `We could not use ${what(subject)}: the file is larger than 15 MB. Take the photo again, or choose a smaller file.`,
      };
    case 415:
      return {
        kind: 'retake',
        message: `We could not use ${what(subject)}: it is not a JPEG, PNG or WebP picture. Take the photo again, or choose a photo file.`,
      };
    case 422:
      // The server's own minimum size (src/identity/uploads/limits.ts); the page checks it before sending, so this is rare.
      if (err.code === 'image_too_small')
        return {
          kind: 'retake',
          message: `We could not use ${what(subject)}: it has too few pixels to be checked. Take the photo again, closer, with the camera rather than a screenshot or a small copy.`,
        };
      return {
        kind: 'retake',
        message: `We could not use ${what(subject)}: it came out empty or unreadable. Take the photo again${subject === 'document' ? ', with the whole document in the frame' : ''}.`,
      };
    case 429:
      return { kind: 'wait', seconds: err.retryAfterSeconds ?? 30 };
    default:
      return err.status >= 500
        ? { kind: 'broken', message: 'The service is having trouble right now. Wait a moment, then try again.' }
        : { kind: 'broken', message: `The service refused this step (${err.status}). Reload the page to continue where you left off.` };
  }
}

export const EXPIRED_TITLE = 'This link has expired';
export const EXPIRED_TEXT =
  'For your safety, capture links work for 30 minutes and stop working when a newer link is made. Go back to the website that sent you here and ask for a new link.';
export const OFFLINE_TEXT = 'You seem to be offline. Check your connection: we will carry on as soon as it is back.';
export const waitText = (seconds: number) =>
  seconds > 0
    ? `Too many attempts in a short time. Please wait ${seconds} second${seconds === 1 ? '' : 's'}, then try again.`
    : 'You can try again now.';

/** Why the page asks for another document photo (web/capture/quality/document-check.ts), in plain words. */
export const DOCUMENT_PROBLEM: Record<DocumentProblem, string> = {
  too_small: `This photo is too small to be checked (it needs at least ${MIN_IMAGE_WIDTH}×${MIN_IMAGE_HEIGHT} pixels). Take the photo with the camera, close enough that the document fills the frame.`,
  no_document:
    'We cannot find a document in this photo. Lay the document flat on a plain surface, in good light, and fit it inside the frame.',
  blurry: 'This photo is blurry. Hold the phone still, let the camera focus on the document, then take it again.',
  glare: 'Part of the document is hidden by glare. Tilt the document a little or move away from the lamp or window, then take it again.',
};

/** The handoff token from the URL fragment (`/capture#<token>`); it is never put in a query or logged. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}
