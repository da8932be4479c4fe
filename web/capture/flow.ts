import { signal } from '@preact/signals';
import { captureApi, type CaptureApi, type Challenge, type FrameSource, type NextStep } from './api.js';
import type { Phrase } from './i18n/catalogue.js';
import { instructionPhrase } from './i18n/instructions.js';
import { say, t } from './i18n/language.js';
import { classify, tokenFromHash, type Subject } from './messages.js';

/**
 * The page's state. The server's `next_step` (GET /v1/capture/status) decides every screen, so a
 * reload, a lost connection or a second device always resumes where the capture really stands
 * and never asks again for a stored image.
 */
type Screen =
  | { name: 'loading' }
  | { name: 'no-link' }
  | { name: 'expired' }
  | { name: 'handoff' }
  | { name: 'intro' }
  | { name: 'document' }
  | { name: 'challenge'; challenge: Challenge; step: number }
  | { name: 'declined' }
  | { name: 'done' };

/**
 * A message over the current screen; `retry` repeats what failed. Messages are phrases, put in
 * words when shown, so the language switcher rewords a notice that is up.
 */
export type Notice =
  | { kind: 'retake'; message: Phrase }
  | { kind: 'wait'; retry: () => void }
  | { kind: 'offline'; retry: () => void }
  | { kind: 'broken'; message: Phrase; retry: () => void }
  | { kind: 'info'; message: Phrase };

export const screen = signal<Screen>({ name: 'loading' });
export const notice = signal<Notice | null>(null);
/** Upload progress 0..1 while an image is being sent, else null. */
export const progress = signal<number | null>(null);
/** Seconds left of a 429's Retry-After; sending waits until it is 0. */
export const waitSeconds = signal(0);
/** Short status sentences for the aria-live region (in the language of the moment they are said). */
export const announcement = signal('');
/** Who asks for the verification (the profile's display name), once the status said it. */
export const requester = signal<string | null>(null);
/** Where the last screens send the person back (the verification's `return_url`), or null. */
export const returnUrl = signal<string | null>(null);
/** The requester's privacy policy (the profile's `privacyPolicyUrl`, https only), linked on the consent screen. */
export const privacyPolicyUrl = signal<string | null>(null);
/**
 * What the computer's "Continue on your phone" screen shows while the phone works: the stage and
 * the frames sent, from polling GET /v1/capture/status (docs/identity.md, "Identity: the hosted capture page").
 */
export const phoneProgress = signal<{ document: boolean; frames: number; total: number | null } | null>(null);

const HERE_KEY = 'capture.continue-here';
const INTRO_KEY = 'capture.intro-read';
const RETURN_KEY = 'capture.return';
const DECLINED_KEY = 'capture.declined';
/** How often the computer's handoff screen asks where the phone stands. */
const FOLLOW_MS = 3000;
let api: CaptureApi | null = null;
/** A short piece of the token naming this link in session storage (never the token itself). */
let linkId = '';
let offlineRetry: (() => void) | null = null;

/** A desktop (fine pointer, wide window) is offered the phone first: its camera is usually worse. */
function looksLikeDesktop(): boolean {
  return !matchMedia('(pointer: coarse)').matches && window.innerWidth >= 700;
}

function continueHereChosen(): boolean {
  try {
    return sessionStorage.getItem(HERE_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Remembers, per link, what the page learned from the status, in this tab only: a link that has
 * since expired answers nothing, but the Expired screen can still offer the way back.
 */
function remember(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ link: linkId, value }));
  } catch {
    // Private mode without storage: remembered until a reload, which is fine.
  }
}

function recall(key: string): string | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { link?: string; value?: string } | null;
    return stored?.link === linkId && typeof stored.value === 'string' ? stored.value : null;
  } catch {
    return null;
  }
}

/** The person pressed "I agree" on the intro: the camera may open. */
export function introRead(): void {
  remember(INTRO_KEY, '1');
  screen.value = { name: 'document' };
}

/** "No, thanks": the service records it and ends the link; the page says what that means. */
export async function declineConsent(): Promise<void> {
  notice.value = null;
  try {
    await api!.declineConsent();
    remember(DECLINED_KEY, '1');
    screen.value = { name: 'declined' };
    announcement.value = t('announce.declined');
  } catch (err) {
    fail(err, 'none', () => void declineConsent());
  }
}

export function continueHere(): void {
  try {
    sessionStorage.setItem(HERE_KEY, '1');
  } catch {
    // Private mode without storage: the choice lasts until a reload, which is fine.
  }
  void resume(true);
}

export function start(): void {
  // Another link opened in this tab (only the fragment changes, so the browser would not reload): start over with it.
  window.addEventListener('hashchange', () => location.reload());
  const token = tokenFromHash(location.hash);
  if (!token) {
    screen.value = { name: 'no-link' };
    return;
  }
  api = captureApi(token);
  linkId = token.slice(0, 8);
  const remembered = recall(RETURN_KEY);
  if (remembered) returnUrl.value = remembered;
  // The link ended when the person declined: a reload shows that answer again, not "expired".
  if (recall(DECLINED_KEY)) {
    screen.value = { name: 'declined' };
    return;
  }
  window.addEventListener('online', () => {
    const retry = offlineRetry;
    offlineRetry = null;
    if (retry) {
      notice.value = null;
      retry();
    }
  });
  void resume(false);
}

async function route(next: NextStep, here: boolean): Promise<void> {
  if (next.type === 'done') {
    screen.value = { name: 'done' };
    announcement.value = t('announce.done');
    return;
  }
  if (next.type === 'document') {
    if (!here && looksLikeDesktop() && !continueHereChosen()) screen.value = { name: 'handoff' };
    else screen.value = recall(INTRO_KEY) ? { name: 'document' } : { name: 'intro' };
    return;
  }
  // The challenge call answers the same steps every time, so asking again after a reload is safe.
  const challenge = await api!.challenge();
  const step = next.type === 'selfie' ? next.step : 0;
  const current = screen.value;
  if (current.name === 'challenge' && current.step === step) return;
  screen.value = { name: 'challenge', challenge, step };
  const instruction = instructionPhrase(challenge.steps.find((s) => s.step === step)?.instruction ?? '');
  announcement.value = t('announce.step', { step: step + 1, total: challenge.steps.length, instruction });
}

/** Asks the server where the capture stands and shows that screen. */
export async function resume(here = screen.value.name !== 'loading'): Promise<void> {
  try {
    const status = await api!.status();
    if (status.requester) {
      requester.value = status.requester.name;
      privacyPolicyUrl.value = safeReturnUrl(status.requester.privacy_policy_url ?? null);
    }
    if (status.return_url !== undefined) {
      returnUrl.value = safeReturnUrl(status.return_url);
      if (returnUrl.value) remember(RETURN_KEY, returnUrl.value);
    }
    // A desktop that already started here (or a phone) never sees the QR code again.
    await route(status.next_step, here || status.next_step.type !== 'document');
    if (screen.value.name === 'handoff') follow();
  } catch (err) {
    fail(err, 'none', () => void resume(here));
  }
}

let following: ReturnType<typeof setTimeout> | undefined;
/**
 * While the computer shows the QR code, it follows the phone: each poll updates the steps done,
 * and once the phone is done this screen says Done too. A failed poll just tries again later;
 * an expired link (the phone finished long ago, or a newer link was made) shows the Expired screen.
 */
function follow(): void {
  clearTimeout(following);
  following = setTimeout(async () => {
    if (screen.value.name !== 'handoff') return;
    try {
      const status = await api!.status();
      const next = status.next_step;
      if (next.type === 'done') {
        phoneProgress.value = null;
        screen.value = { name: 'done' };
        announcement.value = t('announce.done_on_phone');
        return;
      }
      const total = status.stage === 'selfie' || status.stage === 'challenge' ? await totalSteps(status.stage) : null;
      phoneProgress.value = { document: status.stage !== 'document', frames: status.uploaded_steps.length, total };
    } catch (err) {
      const failure = classify(err, 'none');
      if (failure.kind === 'expired') {
        screen.value = { name: 'expired' };
        return;
      }
    }
    follow();
  }, FOLLOW_MS);
}

let challengeSize: number | null = null;
/** The number of face photos once the phone has its challenge (asking again answers the same one). */
async function totalSteps(stage: string): Promise<number | null> {
  if (stage !== 'selfie') return null;
  challengeSize ??= (await api!.challenge()).steps.length;
  return challengeSize;
}

/** Only an https address becomes a link (the service checks it too; a page never links to javascript: or the like). */
function safeReturnUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

let waitTimer: ReturnType<typeof setInterval> | undefined;
function countDown(seconds: number): void {
  const until = Date.now() + seconds * 1000;
  const tick = () => {
    waitSeconds.value = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    if (waitSeconds.value === 0) clearInterval(waitTimer);
  };
  clearInterval(waitTimer);
  waitTimer = setInterval(tick, 250);
  tick();
}

function fail(err: unknown, subject: Subject, retry: () => void): void {
  progress.value = null;
  const failure = classify(err, subject);
  switch (failure.kind) {
    case 'expired':
      notice.value = null;
      screen.value = { name: 'expired' };
      return;
    case 'resume':
      notice.value = { kind: 'info', message: { key: 'notice.resumed' } };
      void resume(true);
      return;
    case 'retake':
      notice.value = { kind: 'retake', message: failure.message };
      announcement.value = say(failure.message);
      return;
    case 'wait':
      notice.value = { kind: 'wait', retry };
      countDown(failure.seconds);
      return;
    case 'offline':
      offlineRetry = retry;
      notice.value = { kind: 'offline', retry };
      return;
    case 'broken':
      notice.value = { kind: 'broken', message: failure.message, retry };
      announcement.value = say(failure.message);
  }
}

function onProgress(fraction: number): void {
  const before = progress.value ?? 0;
  progress.value = fraction;
  // Announce in quarters, not every event: a screen reader cannot keep up with more.
  if (Math.floor(fraction * 4) > Math.floor(before * 4))
    announcement.value = t('announce.sending', { percent: Math.round(fraction * 100) });
}

/** Sends the document in one upload: the side with the portrait, and an ID card's back when there is one. */
export async function sendDocument(image: Blob, back?: Blob): Promise<boolean> {
  notice.value = null;
  progress.value = 0;
  announcement.value = t(back ? 'announce.sending_card' : 'announce.sending_document');
  try {
    const answer = await api!.uploadDocument(image, back, onProgress);
    progress.value = null;
    announcement.value = t('announce.document_received');
    await route(answer.next_step, true);
    return true;
  } catch (err) {
    fail(err, 'document', () => void sendDocument(image, back));
    return false;
  }
}

export async function sendFrame(step: number, image: Blob, source: FrameSource = 'camera'): Promise<boolean> {
  notice.value = null;
  progress.value = 0;
  announcement.value = t('announce.sending_photo');
  try {
    const status = await api!.uploadFrame(step, image, source, onProgress);
    progress.value = null;
    await route(status.next_step, true);
    return true;
  } catch (err) {
    fail(err, 'frame', () => void sendFrame(step, image, source));
    return false;
  }
}
