import { requester, returnUrl } from '../flow.js';

/** A link back to the website that sent the person here (the verification's `return_url`), when it gave one. */
export function ReturnButton({ primary = true }: { primary?: boolean }) {
  const url = returnUrl.value;
  if (!url) return null;
  return (
    <div class="actions">
      <a class={`button${primary ? '' : ' secondary'}`} href={url} rel="noreferrer">
        {requester.value ? `Back to ${requester.value}` : 'Back to the website'}
      </a>
    </div>
  );
}
