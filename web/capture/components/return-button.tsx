import { requester, returnUrl } from '../flow.js';
import { t } from '../i18n/language.js';

/** A link back to the website that sent the person here (the verification's `return_url`), when it gave one. */
export function ReturnButton({ primary = true }: { primary?: boolean }) {
  const url = returnUrl.value;
  if (!url) return null;
  return (
    <div class="actions">
      <a class={`button${primary ? '' : ' secondary'}`} href={url} rel="noreferrer">
        {requester.value ? t('return.named', { requester: requester.value }) : t('return.anonymous')}
      </a>
    </div>
  );
}
