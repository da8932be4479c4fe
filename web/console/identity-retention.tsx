import { useState } from 'preact/hooks';
import { type client, unwrap } from './lib.js';
import { ActionForm } from './ui.js';

/**
 * The profile's identity retention (docs/operations.md, "Retention"), on the operator's profile screen: an
 * empty field keeps decided verifications until they are erased (null); a number of days (1 to
 * 3650) erases each that many days after its decision. The server checks the range and answers
 * its own error, shown under the form.
 */
export function IdentityRetentionForm({
  api,
  id,
  days,
  saved,
}: {
  api: ReturnType<typeof client>;
  id: string;
  days: number | null;
  saved: () => void;
}) {
  const [value, setValue] = useState(days === null ? '' : String(days));
  return (
    <ActionForm
      label="Identity retention"
      submit="Change retention"
      action={async () => {
        const text = value.trim();
        const identityRetentionDays = text === '' ? null : Number(text);
        await unwrap(api.PATCH('/admin/v1/profiles/{id}', { params: { path: { id } }, body: { identityRetentionDays } }));
        saved();
      }}
    >
      <label for="identity-retention">Erase decided verifications after (days; empty keeps them until erased)</label>
      <input
        id="identity-retention"
        type="number"
        min={1}
        max={3650}
        step={1}
        inputMode="numeric"
        placeholder="Kept until erased"
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
    </ActionForm>
  );
}
