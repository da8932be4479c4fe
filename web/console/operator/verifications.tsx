import { useState } from 'preact/hooks';
import { localTime, unwrap } from '../lib.js';
import { FilteredList } from '../filtered-list.js';
import { ListTable } from '../list-table.js';
import { ActionForm, Link, ShownOnce } from '../ui.js';
import { QrCode } from '../../shared/qr-code.js';
import { VERIFICATION_STATUSES } from '../vocabulary.js';
import type { SectionProps } from './context.js';
import { decisionReasonText } from '../decision-reasons.js';

/** A profile's identity verifications by status, and a form that starts one and shows its capture link once. */
export function Verifications({ api, profileId }: SectionProps) {
  const [reference, setReference] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [returnUrl, setReturnUrl] = useState('');
  const [captureLink, setCaptureLink] = useState<string | null>(null);
  const [started, setStarted] = useState(0);
  return (
    <section aria-labelledby="verifications-h">
      <h2 id="verifications-h">Verifications</h2>
      {captureLink && (
        <ShownOnce label="Capture link" value={captureLink} link onDone={() => setCaptureLink(null)}>
          <p class="muted">Or scan it with the person’s phone:</p>
          <QrCode text={captureLink} label="QR code of the capture link" />
        </ShownOnce>
      )}
      <ActionForm
        label="Start a verification"
        submit="Start verification"
        action={async () => {
          const created = await unwrap(
            api.POST('/admin/v1/profiles/{id}/verifications', {
              params: { path: { id: profileId } },
              body: {
                ...(reference.trim() ? { reference: reference.trim() } : {}),
                ...(webhookUrl.trim() ? { webhook_url: webhookUrl.trim() } : {}),
                ...(returnUrl.trim() ? { return_url: returnUrl.trim() } : {}),
              },
            }),
          );
          setCaptureLink(created.data.capture_url);
          setReference('');
          setWebhookUrl('');
          setReturnUrl('');
          setStarted((n) => n + 1);
        }}
      >
        <label for="verification-reference">Reference (optional)</label>
        <input id="verification-reference" value={reference} maxLength={200} onInput={(e) => setReference(e.currentTarget.value)} />
        <label for="verification-webhook">Decision webhook URL (optional, https://)</label>
        <input id="verification-webhook" type="url" value={webhookUrl} onInput={(e) => setWebhookUrl(e.currentTarget.value)} />
        <label for="verification-return">Return address after capture (optional, https://)</label>
        <input id="verification-return" type="url" value={returnUrl} onInput={(e) => setReturnUrl(e.currentTarget.value)} />
      </ActionForm>
      <FilteredList
        id="verification"
        scope={profileId}
        statuses={VERIFICATION_STATUSES}
        refresh={started}
        searchLabel="Find by reference"
        load={async ({ search, ...query }) =>
          (
            await unwrap(
              api.GET('/admin/v1/profiles/{id}/verifications', {
                params: { path: { id: profileId }, query: { ...query, ...(search ? { reference: search } : {}) } },
              }),
            )
          ).data
        }
        empty={(status) => `No verifications${status ? ` in ${status}` : ''}.`}
      >
        {(items) => (
          <ListTable
            label="Verifications"
            rows={items}
            rowKey={(v) => v.id}
            columns={[
              {
                label: 'Id',
                cell: (v) => (
                  <Link href={`/console/operator/profiles/${profileId}/verifications/${v.id}`}>
                    <code>{v.id.slice(0, 8)}</code>
                  </Link>
                ),
              },
              { label: 'Status', cell: (v) => v.status },
              { label: 'Reason', cell: (v) => (v.erased ? 'erased' : decisionReasonText(v.decision_reason)) },
              { label: 'Reference', cell: (v) => (v.erased ? '—' : (v.reference ?? '—')) },
              { label: 'Created', cell: (v) => (v.erased ? localTime(v.erased_at) : localTime(v.created_at)) },
            ]}
          />
        )}
      </FilteredList>
    </section>
  );
}
