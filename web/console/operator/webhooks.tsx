import { useState } from 'preact/hooks';
import { unwrap, useLoad } from '../lib.js';
import { ActionButton, ActionForm, Async, Notice, ShownOnce } from '../ui.js';
import { ConfirmButton } from '../confirm.js';
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
        {({ data }) =>
          data.items.length === 0 ? (
            <Notice>No webhook endpoints yet. Register one above to receive this profile's events.</Notice>
          ) : (
            <table class="list stacked" aria-label="Webhook endpoints">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id}>
                    <td data-label="URL">
                      <code>{e.url}</code>
                    </td>
                    <td data-label="Events">{e.events.length ? e.events.join(', ') : 'all'}</td>
                    <td data-label="State">{e.enabled ? 'enabled' : `disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`}</td>
                    <td class="actions">
                      {/* A disabled endpoint receives nothing (the server refuses a test event to it). */}
                      {e.enabled && (
                        <ActionButton
                          label={`Send test event to ${e.url}`}
                          action={async () => (
                            await unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/test', { params: { path: { id: e.id } } })),
                            deliveries.reload()
                          )}
                        >
                          Send test event
                        </ActionButton>
                      )}
                      <ConfirmButton
                        label={`Rotate secret of ${e.url}`}
                        consequence={{
                          title: 'Rotate the signing secret?',
                          body: (
                            <p>
                              A new secret for <code>{e.url}</code> is made and shown once. Deliveries are signed with it from now on; the
                              receiver must be given the new secret or it will reject them.
                            </p>
                          ),
                          confirm: 'Rotate secret',
                        }}
                        action={async () =>
                          setShown({
                            label: 'New signing secret',
                            value: (
                              await unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: e.id } } }))
                            ).data.secret,
                          })
                        }
                      >
                        Rotate secret
                      </ConfirmButton>
                      {e.enabled ? (
                        <ConfirmButton
                          label={`Disable ${e.url}`}
                          consequence={{
                            title: 'Disable this endpoint?',
                            body: (
                              <p>
                                Nothing is sent to <code>{e.url}</code> until it is enabled again; deliveries due meanwhile are not made.
                              </p>
                            ),
                            confirm: 'Disable endpoint',
                          }}
                          action={async () => (
                            await unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/disable', { params: { path: { id: e.id } } })),
                            refresh()
                          )}
                        >
                          Disable
                        </ConfirmButton>
                      ) : (
                        <ActionButton
                          label={`Enable ${e.url}`}
                          action={async () => (
                            await unwrap(api.POST('/admin/v1/webhook-endpoints/{id}/enable', { params: { path: { id: e.id } } })),
                            refresh()
                          )}
                        >
                          Enable
                        </ActionButton>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
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
