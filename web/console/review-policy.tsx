import { useState } from 'preact/hooks';
import { type client, unwrap } from './lib.js';
import { ActionForm } from './ui.js';
import type { ReviewPolicy } from './vocabulary.js';

const LABELS: Record<ReviewPolicy, string> = {
  single: 'Single: one reviewer decides',
  four_eyes: 'Four eyes: two reviewer keys must agree',
};

/** The profile's manual-review policy (docs/identity.md, "Four-eyes review"), on the operator's profile screen. */
export function ReviewPolicyForm({
  api,
  id,
  policy,
  saved,
}: {
  api: ReturnType<typeof client>;
  id: string;
  policy: ReviewPolicy;
  saved: () => void;
}) {
  const [value, setValue] = useState<ReviewPolicy>(policy);
  return (
    <ActionForm
      label="Review policy"
      submit="Change review policy"
      action={async () => {
        await unwrap(api.PATCH('/admin/v1/profiles/{id}', { params: { path: { id } }, body: { reviewPolicy: value } }));
        saved();
      }}
    >
      <label for="review-policy">Manual review</label>
      <select id="review-policy" value={value} onChange={(e) => setValue(e.currentTarget.value as ReviewPolicy)}>
        {(Object.keys(LABELS) as ReviewPolicy[]).map((p) => (
          <option key={p} value={p}>
            {LABELS[p]}
          </option>
        ))}
      </select>
    </ActionForm>
  );
}
