import { useEffect } from 'preact/hooks';
import { continueHere, declineConsent, introRead, phoneProgress, privacyPolicyUrl, requester } from '../flow.js';
import { t } from '../i18n/language.js';
import { loadPoseChecker } from '../pose/checker.js';
import { Heading } from './heading.js';
import { NoticeBox } from './notice.js';
import { QrCode } from '../../shared/qr-code.js';
import { ReturnButton } from './return-button.js';

/** The first status call; offline or a server error here shows its notice with a retry. */
export function Loading() {
  return (
    <>
      <Heading>{t('loading.title')}</Heading>
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
      <Heading>{t('handoff.title')}</Heading>
      <p>{t('handoff.text')}</p>
      <QrCode text={location.href} label={t('handoff.qr')} />
      <p class="small">{t('handoff.private')}</p>
      {pointsToThisComputer(location.hostname) && (
        <p class="notice warn" role="alert">
          {t('handoff.localhost', { host: location.hostname })}
        </p>
      )}
      <PhoneProgress />
      <NoticeBox />
      <div class="actions">
        <button type="button" class="button secondary" onClick={continueHere}>
          {t('handoff.continue_here')}
        </button>
      </div>
    </>
  );
}

/** The steps the phone has done, as the computer learns them by polling (flow.ts `follow`). */
function PhoneProgress() {
  const p = phoneProgress.value;
  const steps: [string, string, boolean][] = [
    ['document', t('progress.document'), !!p?.document],
    [
      'faces',
      p?.total ? t('progress.faces_count', { done: p.frames, total: p.total }) : t('progress.faces'),
      !!p?.total && p.frames >= p.total,
    ],
  ];
  return (
    <section class="phone-progress" aria-label={t('progress.label')}>
      <h2>{t('progress.title')}</h2>
      <ol>
        {steps.map(([id, label, done]) => (
          <li key={id} class={done ? 'done' : undefined}>
            <span aria-hidden="true">{done ? '✓' : '○'}</span> {label}
            <span class="visually-hidden">{t(done ? 'progress.done' : 'progress.not_yet')}</span>
          </li>
        ))}
      </ol>
      <p class="small" aria-live="polite">
        {t(p?.document ? 'progress.taking' : 'progress.waiting')}
      </p>
    </section>
  );
}

/**
 * Before the camera opens: who asks, what will be taken, what is kept and for how long, and the
 * requester's privacy policy (the profile's `privacyPolicyUrl`) — docs/identity.md, "Consent and capture".
 * Nothing starts until the person agrees; "No, thanks" ends here and the service records it.
 */
export function Intro() {
  // The pose check's library and models load while the person reads (after this screen is up).
  useEffect(() => loadPoseChecker(), []);
  const name = requester.value;
  const requesterWords = name || t('intro.requester_unknown');
  return (
    <>
      <Heading step={t('intro.step')}>{name ? t('intro.title', { requester: name }) : t('intro.title_anonymous')}</Heading>
      <section class="intro" aria-label={t('intro.region')}>
        <h2>{t('intro.asked')}</h2>
        <ul>
          <li>{t('intro.asked_document')}</li>
          <li>{t('intro.asked_faces')}</li>
        </ul>
        <h2>{t('intro.kept')}</h2>
        <ul>
          <li>{t('intro.kept_stored', { requester: requesterWords })}</li>
          <li>{t('intro.kept_until', { requester: requesterWords })}</li>
          <li>{t('intro.kept_camera')}</li>
        </ul>
        {privacyPolicyUrl.value && (
          <p>
            {t('intro.policy', { requester: requesterWords })}{' '}
            <a href={privacyPolicyUrl.value} target="_blank" rel="noreferrer noopener">
              {t('intro.policy_link', { requester: requesterWords })}
            </a>
            .
          </p>
        )}
      </section>
      <p>
        <strong>{t('intro.question', { requester: requesterWords })}</strong> {t('intro.question_note')}
      </p>
      <NoticeBox />
      <div class="actions">
        <button type="button" class="button" onClick={introRead}>
          {t('intro.agree')}
        </button>
        <button type="button" class="button secondary" onClick={() => void declineConsent()}>
          {t('intro.decline')}
        </button>
      </div>
    </>
  );
}

/** After "No, thanks": nothing was sent, the link has ended, and how to change one's mind. */
export function Declined() {
  const requesterWords = requester.value || t('declined.requester_unknown');
  return (
    <>
      <Heading>{t('declined.title')}</Heading>
      <p>{t('declined.text', { requester: requesterWords })}</p>
      <p>{t('declined.again', { requester: requesterWords })}</p>
      <ReturnButton />
    </>
  );
}

export function Expired() {
  return (
    <>
      <Heading>{t('expired.title')}</Heading>
      <p>{t('expired.text')}</p>
      <ReturnButton />
    </>
  );
}

export function NoLink() {
  return (
    <>
      <Heading>{t('no_link.title')}</Heading>
      <p>{t('no_link.text')}</p>
    </>
  );
}

export function Done() {
  return (
    <>
      <Heading>{requester.value ? t('done.title', { requester: requester.value }) : t('done.title_anonymous')}</Heading>
      <p>{t('done.text')}</p>
      <ReturnButton />
      <svg class="done-mark" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" stroke-width="3" />
        <path d="M14 25l7 7 13-15" fill="none" stroke="currentColor" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </>
  );
}
