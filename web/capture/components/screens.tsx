import { useEffect } from 'preact/hooks';
import { continueHere, introRead, requester } from '../flow.js';
import { loadPoseChecker } from '../pose/checker.js';
import { EXPIRED_TEXT, EXPIRED_TITLE } from '../messages.js';
import { Heading } from './heading.js';
import { NoticeBox } from './notice.js';
import { QrCode } from './qr-code.js';
import { ReturnButton } from './return-button.js';

/** The first status call; offline or a server error here shows its notice with a retry. */
export function Loading() {
  return (
    <>
      <Heading>Opening your verification…</Heading>
      <NoticeBox />
    </>
  );
}

/** A host only this computer reaches: a phone scanning the code would open its own localhost. */
function pointsToThisComputer(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '[::1]' || host === '0.0.0.0';
}

/** On a computer: the same link as a QR code for the phone, or carry on here with a webcam. */
export function Handoff() {
  return (
    <>
      <Heading>Continue on your phone</Heading>
      <p>Your phone’s camera takes sharper photos of your ID. Scan this code with your phone’s camera app to open this page there.</p>
      <QrCode text={location.href} label="QR code of this page’s address, to open it on your phone" />
      <p class="small">The code holds a private link for you only. Don’t share it.</p>
      {pointsToThisComputer(location.hostname) && (
        <p class="notice warn" role="alert">
          This link points to this computer ({location.hostname}), so a phone cannot open it. Ask the website for a link with a public
          address (the service’s PUBLIC_URL), or continue on this computer.
        </p>
      )}
      <NoticeBox />
      <div class="actions">
        <button type="button" class="button secondary" onClick={continueHere}>
          Continue on this computer
        </button>
      </div>
    </>
  );
}

/**
 * Before the camera opens: who asks, what will be taken, what is kept and for how long (the
 * README, "Identity: the hosted capture page"); nothing starts until the person continues.
 */
export function Intro() {
  // The pose check's library and models load while the person reads (after this screen is up).
  useEffect(() => loadPoseChecker(), []);
  const who = requester.value || 'The website that sent you here';
  const whom = requester.value || 'that website';
  return (
    <>
      <Heading step="Before you start">{`${who} asks you to verify your identity`}</Heading>
      <section class="intro" aria-label="What happens">
        <h2>What we will ask for</h2>
        <ul>
          <li>A photo of your passport or ID card.</li>
          <li>A few photos of your face, turning your head as asked, so we know it is you and not a picture.</li>
        </ul>
        <h2>What is kept, and for how long</h2>
        <ul>
          <li>
            Your photos and the details printed on your document are stored for {whom}, checked automatically and, when the check is unsure,
            by a person working for {whom}.
          </li>
          <li>They are kept until {whom} erases your verification, which deletes the photos and personal details for good.</li>
          <li>The camera works only while this page is open; nothing but the photos you send leaves your phone.</li>
        </ul>
      </section>
      <div class="actions">
        <button type="button" class="button" onClick={introRead}>
          Continue
        </button>
      </div>
    </>
  );
}

export function Expired() {
  return (
    <>
      <Heading>{EXPIRED_TITLE}</Heading>
      <p>{EXPIRED_TEXT}</p>
      <ReturnButton />
    </>
  );
}

export function NoLink() {
  return (
    <>
      <Heading>This link is incomplete</Heading>
      <p>Open the full link the website gave you (or scan its QR code again). If it still does not work, ask the website for a new link.</p>
    </>
  );
}

export function Done() {
  return (
    <>
      <Heading>Done — you can return to the website</Heading>
      <p>Your photos were received and are being checked. You can close this page.</p>
      <ReturnButton />
      <svg class="done-mark" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3" />
        <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </>
  );
}
