import { MIN_IMAGE_HEIGHT, MIN_IMAGE_WIDTH } from '../../src/identity/upload-limits.js';
import type { DocumentProblem } from './quality/document-check.js';
import { ApiError, OfflineError } from './errors.js';
import { phrase, type Phrase } from './i18n/catalogue.js';

/** What the page does after a failed call, and what it says in plain words (a phrase of the catalogues, web/capture/i18n). */
type Failure =
  | { kind: 'expired' }
  | { kind: 'resume' }
  | { kind: 'retake'; message: Phrase }
  | { kind: 'wait'; seconds: number }
  | { kind: 'offline' }
  | { kind: 'broken'; message: Phrase };

export type Subject = 'document' | 'frame' | 'none';

const what = (subject: Subject) => phrase(subject === 'document' ? 'upload.subject_document' : 'upload.subject_face');

/**
 * Classifies an error of a capture call (statuses as documented for /v1/capture/*): 401 means
 * the link expired or was replaced, 409 that the server is further along than this page (resume
 * from the status), 413/415/422 that the image must be taken again, 429 to wait Retry-After.
 */
export function classify(err: unknown, subject: Subject): Failure {
  if (err instanceof OfflineError) return { kind: 'offline' };
  if (!(err instanceof ApiError)) return { kind: 'broken', message: phrase('notice.page_broken') };
  switch (err.status) {
    case 401:
      return { kind: 'expired' };
    case 409:
      return { kind: 'resume' };
    case 413:
      return { kind: 'retake', message: phrase('upload.too_large', { subject: what(subject) }) };
    case 415:
      return { kind: 'retake', message: phrase('upload.wrong_type', { subject: what(subject) }) };
    case 422:
      // The server's own minimum size (src/identity/upload-limits.ts); the page checks it before sending, so this is rare.
      if (err.code === 'image_too_small') return { kind: 'retake', message: phrase('upload.too_small', { subject: what(subject) }) };
      return { kind: 'retake', message: phrase(subject === 'document' ? 'upload.unreadable_document' : 'upload.unreadable_face') };
    case 429:
      return { kind: 'wait', seconds: err.retryAfterSeconds ?? 30 };
    default:
      return err.status >= 500
        ? { kind: 'broken', message: phrase('notice.service_trouble') }
        : { kind: 'broken', message: phrase('notice.service_refused', { status: err.status }) };
  }
}

export const waitText = (seconds: number): Phrase =>
  seconds <= 0 ? phrase('notice.wait_over') : phrase(seconds === 1 ? 'notice.wait_one' : 'notice.wait_other', { seconds });

/** Why the page asks for another document photo (web/capture/quality/document-check.ts), in plain words. */
export const DOCUMENT_PROBLEM: Record<DocumentProblem, Phrase> = {
  too_small: phrase('document.too_small', { width: MIN_IMAGE_WIDTH, height: MIN_IMAGE_HEIGHT }),
  no_document: phrase('document.no_document'),
  blurry: phrase('document.blurry'),
  glare: phrase('document.glare'),
};

/** The handoff token from the URL fragment (`/capture#<token>`); it is never put in a query or logged. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}
