import { notice, progress, waitSeconds } from '../flow.js';
import { say, t } from '../i18n/language.js';
import { waitText } from '../messages.js';
import { ReturnButton } from './return-button.js';

/**
 * The current problem in plain words, with what to do about it. `retry` false leaves retrying to
 * the screen's own button (the document preview's "Send this photo" sends the same photo again).
 */
export function NoticeBox({ retry = true }: { retry?: boolean }) {
  const n = notice.value;
  if (!n) return null;
  switch (n.kind) {
    case 'info':
      return <p class="notice info">{say(n.message)}</p>;
    case 'retake':
      return (
        <p class="notice warn" role="alert">
          {say(n.message)}
        </p>
      );
    case 'wait':
      return (
        <div class="notice warn" role="alert">
          <p>{say(waitText(waitSeconds.value))}</p>
          {retry && (
            <button type="button" class="button secondary" disabled={waitSeconds.value > 0} onClick={n.retry}>
              {t('notice.try_again')}
            </button>
          )}
        </div>
      );
    case 'offline':
      return (
        <div class="notice warn" role="alert">
          <p>{t('notice.offline')}</p>
          {retry && (
            <button type="button" class="button secondary" onClick={n.retry}>
              {t('notice.try_again_now')}
            </button>
          )}
        </div>
      );
    case 'broken':
      return (
        <div class="notice warn" role="alert">
          <p>{say(n.message)}</p>
          {retry && (
            <button type="button" class="button secondary" onClick={n.retry}>
              {t('notice.try_again')}
            </button>
          )}
          <ReturnButton primary={false} />
        </div>
      );
  }
}

/** The upload's progress bar while a photo is being sent. */
export function UploadProgress() {
  const p = progress.value;
  if (p === null) return null;
  const percent = Math.round(p * 100);
  return (
    <div class="progress">
      <label for="upload-progress">{t('upload.sending', { percent })}</label>
      <progress id="upload-progress" max={100} value={percent} />
    </div>
  );
}
