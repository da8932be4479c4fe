import { useEffect } from 'preact/hooks';
import { continueHere, declineConsent, introRead, phoneProgress, privacyPolicyUrl, requester } from '../flow.js';
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
      <PhoneProgress />
      <NoticeBox />
      <div class="actions">
        <button type="button" class="button secondary" onClick={continueHere}>
          Continue on this computer
        </button>
      </div>
    </>
  );
}

/** The steps the phone has done, as the computer learns them by polling (flow.ts `follow`). */
function PhoneProgress() {
  const p = phoneProgress.value;
  const steps: [string, boolean][] = [
    ['Photo of the document', !!p?.document],
    [p?.total ? `Photos of your face (${p.frames} of ${p.total})` : 'Photos of your face', !!p?.total && p.frames >= p.total],
  ];
  return (
    <section class="phone-progress" aria-label="Progress on your phone">
      <h2>On your phone</h2>
      <ol>
        {steps.map(([label, done]) => (
          <li key={label} class={done ? 'done' : undefined}>
            <span aria-hidden="true">{done ? '✓' : '○'}</span> {label}
            <span class="visually-hidden">{done ? ': done' : ': not yet'}</span>
          </li>
        ))}
      </ol>
      <p class="small" aria-live="polite">
        {p ? (p.document ? 'Your phone is taking the photos…' : 'Waiting for your phone…') : 'Waiting for your phone…'}
      </p>
    </section>
  );
}

/**
 * Before the camera opens: who asks, what will be taken, what is kept and for how long, and the
 * requester's privacy policy (the profile's `privacyPolicyUrl`) — README, "Consent and capture".
 * Nothing starts until the person agrees; "No, thanks" ends here and the service records it.
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
        {privacyPolicyUrl.value && (
          <p>
            How {whom} handles your data:{' '}
            <a href={privacyPolicyUrl.value} target="_blank" rel="noreferrer noopener">
              privacy policy of {whom} (opens in a new tab)
            </a>
            .
          </p>
        )}
      </section>
      <p>
        <strong>Do you agree that {whom} takes and checks these photos?</strong> The camera opens only after you agree.
      </p>
      <NoticeBox />
      <div class="actions">
        <button type="button" class="button" onClick={introRead}>
          I agree
        </button>
        <button type="button" class="button secondary" onClick={() => void declineConsent()}>
          No, thanks
        </button>
      </div>
    </>
  );
}

/** After "No, thanks": nothing was sent, the link has ended, and how to change one's mind. */
export function Declined() {
  const whom = requester.value || 'the website that sent you here';
  return (
    <>
      <Heading>You declined: nothing was sent</Heading>
      <p>No photo was taken and the camera was not opened. We told {whom} that you did not agree, and this link no longer works.</p>
      <p>If you change your mind, ask {whom} for a new link. You can close this page.</p>
      <ReturnButton />
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
      <Heading>{requester.value ? `Done — ${requester.value} has your photos` : 'Done — you can return to the website'}</Heading>
      <p>Your photos were received and are being checked. You can close this page.</p>
      <ReturnButton />
      <svg class="done-mark" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3" />
        <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </>
  );
}
