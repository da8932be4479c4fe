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

/** The handoff token from the URL fragment (`/capture#<token>`); it is never put in a query or logged. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}
