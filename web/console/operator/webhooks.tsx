import { useState } from 'preact/hooks';
import { unwrap, useLoad } from '../lib.js';
import type { ApiClient } from '../../shared/api.js';
import { ActionButton } from '../action-button.js';
import { ListTable } from '../list-table.js';
import { ActionForm, Async, Notice, ShownOnce } from '../ui.js';
import type { SectionProps } from './context.js';
import { DeliveryTable } from './deliveries.js';

/** A profile's webhook endpoints (register, test, rotate, disable, enable) and its delivery log. */
export function Webhooks({ api, profileId }: SectionProps) {
  const endpoints = useLoad(
    () => unwrap(api.GET('/admin/v1/profiles/{id}/webhook-endpoints', { params: { path: { id: profileId } } })),
    [profileId],
  );
  // The profile's whole log: its endpoints' deliveries and its identity decision webhooks.
  const deliveries = useLoad(
    async () => (await unwrap(api.GET('/admin/v1/webhook-deliveries', { params: { query: { profileId, limit: 50 } } }))).data.items,
    [profileId],
  );
  const [url, setUrl] = useState('');
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);
  const refresh = () => (endpoints.reload(), deliveries.reload());
  return (
    <section aria-labelledby="webhooks-h">
      <h2 id="webhooks-h">Webhook endpoints</h2>
      {shown && <ShownOnce label={shown.label} value={shown.value} onDone={() => setShown(null)} />}
      <ActionForm
        label="New webhook endpoint"
        submit="Register endpoint"
        action={async () => {
          const created = await unwrap(
            api.POST('/admin/v1/profiles/{id}/webhook-endpoints', { params: { path: { id: profileId } }, body: { url } }),
          );
          setShown({ label: 'Signing secret', value: created.data.secret });
          setUrl('');
          endpoints.reload();
        }}
      >
        <label for="endpoint-url">Endpoint URL (https)</label>
        <input
          id="endpoint-url"
          type="url"
          required
          placeholder="https://example.com/webhooks"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
      </ActionForm>
      <Async state={endpoints}>
        {({ data }) => (
          <ListTable
            empty="No webhook endpoints yet. Register one above to receive this profile's events."
            stacked
            label="Webhook endpoints"
            rows={data.items}
            rowKey={(e) => e.id}
            columns={[
              { label: 'URL', cell: (e) => <code>{e.url}</code> },
              { label: 'Events', cell: (e) => (e.events.length ? e.events.join(', ') : 'all') },
              { label: 'State', cell: (e) => (e.enabled ? 'enabled' : `disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`) },
              {
                label: 'Actions',
                hideLabel: true,
                attrs: () => ({ class: 'actions' }),
                cell: (e) => <EndpointActions api={api} endpoint={e} shown={setShown} reload={refresh} reloadLog={deliveries.reload} />,
              },
            ]}
          />
        )}
      </Async>
      <h2 id="deliveries-h">Delivery log</h2>
      <button type="button" onClick={deliveries.reload}>
        Refresh the log
      </button>
      <Async state={deliveries}>
        {(items) =>
          items.length === 0 ? (
            <Notice>No deliveries yet.</Notice>
          ) : (
            <DeliveryTable api={api} items={items} labelledBy="deliveries-h" reload={deliveries.reload} />
          )
        }
      </Async>
    </section>
  );
}

/** What an endpoint's row offers: a test event while it is enabled, a new secret (shown once), disable or enable. */
function EndpointActions({
  api,
  endpoint: e,
  shown,
  reload,
  reloadLog,
}: {
  api: ApiClient;
  endpoint: { id: string; url: string; enabled: boolean };
  shown: (secret: { label: string; value: string }) => void;
  /** The endpoints and the log, after one is disabled or enabled. */
  reload: () => void;
  /** The log alone, after a test event. */
  reloadLog: () => void;
}) {
  const path = { params: { path: { id: e.id } } };
  return (
    <>
      {/* A disabled endpoint receives nothing (the server refuses a test event to it). */}
      {e.enabled && (
        <ActionButton
          label={`Send test event to ${e.url}`}
          action={() => unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/test', path))}
          reload={reloadLog}
        >
          Send test event
        </ActionButton>
      )}
      <ActionButton
        label={`Rotate secret of ${e.url}`}
        confirm={{
          title: 'Rotate the signing secret?',
          body: (
            <p>
              A new secret for <code>{e.url}</code> is made and shown once. Deliveries are signed with it from now on; the receiver must be
              given the new secret or it will reject them.
            </p>
          ),
          confirm: 'Rotate secret',
        }}
        action={async () =>
          shown({
            label: 'New signing secret',
            value: (await unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/rotate-secret', path))).data.secret,
          })
        }
      >
        Rotate secret
      </ActionButton>
      {e.enabled ? (
        <ActionButton
          label={`Disable ${e.url}`}
          confirm={{
            title: 'Disable this endpoint?',
            body: (
              <p>
                Nothing is sent to <code>{e.url}</code> until it is enabled again; deliveries due meanwhile are not made.
              </p>
            ),
            confirm: 'Disable endpoint',
          }}
          action={() => unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/disable', path))}
          reload={reload}
        >
          Disable
        </ActionButton>
      ) : (
        <ActionButton
          label={`Enable ${e.url}`}
          action={() => unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/enable', path))}
          reload={reload}
        >
          Enable
        </ActionButton>
      )}
    </>
  );
}
