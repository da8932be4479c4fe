import { useState } from 'preact/hooks';
import { type client, unwrap } from './lib.js';
import { ActionForm } from './ui.js';

/**
 * The profile's privacy policy (docs/identity.md, "Consent and capture"), on the operator's profile
 * screen: the hosted capture page links to it on its first screen, before the person agrees and
 * the camera opens. An empty field removes the link (null); the server accepts only https and
 * answers its own error for anything else, shown under the form.
 */
export function PrivacyPolicyForm({
  api,
  id,
  url,
  saved,
}: {
  api: ReturnType<typeof client>;
  id: string;
  url: string | null;
  saved: () => void;
}) {
  const [value, setValue] = useState(url ?? '');
  return (
    <ActionForm
      label="Privacy policy"
      submit="Change privacy policy"
      action={async () => {
        const text = value.trim();
        await unwrap(
          api.PATCH('/admin/v1/profiles/{id}', { params: { path: { id } }, body: { privacyPolicyUrl: text === '' ? null : text } }),
        );
        saved();
      }}
    >
      <label for="privacy-policy">Privacy policy linked from the capture page (https; empty shows no link)</label>
      <input
        id="privacy-policy"
        type="url"
        inputMode="url"
        maxLength={2048}
        placeholder="https://example.com/privacy"
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
    </ActionForm>
  );
}
