import { useMemo, useState } from 'preact/hooks';
import { adminToken, client, localTime, navigate, unwrap, useLoad } from './lib.js';
import { FilteredList, Pager } from './filtered-list.js';
import { ActionButton, ActionForm, Async, Link, Notice, Shell, ShownOnce } from './ui.js';
import { ReviewPolicyForm } from './review-policy.js';
import { Keys } from './keys.js';
import { ConfirmButton } from './confirm.js';

type Api = ReturnType<typeof client>;
const useApi = () => useMemo(() => client(adminToken.value), [adminToken.value]);

export function OperatorNav() {
  return (
    <>
      <Link href="/console/operator/overview">Overview</Link>
      <Link href="/console/operator">Profiles</Link>
      <button type="button" class="link" onClick={() => ((adminToken.value = null), navigate('/console/operator'))}>
        Sign out
      </button>
    </>
  );
}

export function OperatorSignIn() {
  const [token, setToken] = useState('');
  return (
    <Shell title="Operator sign-in">
      <p>
        Sign in with the server’s <code>ADMIN_TOKEN</code>. It is kept in this browser tab only.
      </p>
      <ActionForm
        label="Operator sign-in"
        submit="Sign in"
        action={async () => {
          const t = token.trim();
          await unwrap(client(t).GET('/admin/v1/profiles', { params: { query: { limit: 1 } } }));
          adminToken.value = t;
        }}
      >
        <label for="admin-token">Operator token (ADMIN_TOKEN)</label>
        <input
          id="admin-token"
          type="password"
          autocomplete="off"
          required
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
      </ActionForm>
    </Shell>
  );
}

const PLANS = ['FREE', 'PRO', 'ENTERPRISE'] as const;
type Plan = (typeof PLANS)[number];

export function Profiles() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles', { params: { query: { page, limit: 20 } } })), [page]);
  const [name, setName] = useState('');
  const [plan, setPlan] = useState<Plan>('PRO');
  return (
    <Shell title="Profiles" nav={<OperatorNav />}>
      <section aria-labelledby="new-profile-h">
        <h2 id="new-profile-h">New profile</h2>
        <ActionForm
          label="New profile"
          submit="Create profile"
          action={async () => {
            const created = await unwrap(api.POST('/admin/v1/profiles', { body: { name, plan } }));
            navigate(`/console/operator/profiles/${created.data.id}`);
          }}
        >
          <label for="profile-name">Name</label>
          <input id="profile-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="profile-plan">Plan</label>
          <select id="profile-plan" value={plan} onChange={(e) => setPlan(e.currentTarget.value as Plan)}>
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </ActionForm>
      </section>
      <section aria-labelledby="profiles-h">
        <h2 id="profiles-h">All profiles</h2>
        <Async state={state}>
          {({ data }) => (
            <>
              <table class="list">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((p) => (
                    <tr key={p.id}>
                      <td>
                        <Link href={`/console/operator/profiles/${p.id}`}>{p.name}</Link>
                      </td>
                      <td>{p.plan}</td>
                      <td>{localTime(p.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {data.items.length === 0 && <Notice>No profiles yet.</Notice>}
              <Pager page={data.page} limit={data.limit} total={data.total} go={setPage} />
            </>
          )}
        </Async>
      </section>
    </Shell>
  );
}

const TABS = [
  ['keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['verifications', 'Verifications'],
  ['governance', 'Governance'],
] as const;
type Tab = (typeof TABS)[number][0];

export function Profile({ id, tab }: { id: string; tab: string }) {
  const api = useApi();
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles/{id}', { params: { path: { id } } })), [id]);
  const current = (TABS.find(([t]) => t === tab)?.[0] ?? 'keys') as Tab;
  return (
    <Shell title="Profile" nav={<OperatorNav />}>
      <Async state={state}>
        {({ data: profile }) => (
          <>
            <PlanForm api={api} id={id} name={profile.name} plan={profile.plan} saved={state.reload} />
            <ReviewPolicyForm api={api} id={id} policy={profile.reviewPolicy} saved={state.reload} />
            <nav class="tabs" aria-label="Profile sections">
              {TABS.map(([t, label]) => (
                <Link key={t} href={`/console/operator/profiles/${id}/${t}`} aria-current={t === current ? 'page' : undefined}>
                  {label}
                </Link>
              ))}
            </nav>
            {current === 'keys' && <Keys api={api} profileId={id} />}
            {current === 'webhooks' && <Webhooks api={api} profileId={id} />}
            {current === 'events' && <Events api={api} profileId={id} />}
            {current === 'verifications' && <Verifications api={api} profileId={id} />}
            {current === 'governance' && <Governance api={api} profileId={id} />}
          </>
        )}
      </Async>
    </Shell>
  );
}

function PlanForm({ api, id, name, plan, saved }: { api: Api; id: string; name: string; plan: Plan; saved: () => void }) {
  const [value, setValue] = useState<Plan>(plan);
  return (
    <div class="profile-head">
      <h2 data-testid="profile-name">{name}</h2>
      <p class="muted">
        Id <code>{id}</code>
      </p>
      <ActionForm
        label="Plan"
        submit="Change plan"
        action={async () => {
          await unwrap(api.PATCH('/admin/v1/profiles/{id}', { params: { path: { id } }, body: { plan: value } }));
          saved();
        }}
      >
        <label for="plan">Plan</label>
        <select id="plan" value={value} onChange={(e) => setValue(e.currentTarget.value as Plan)}>
          {PLANS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </ActionForm>
    </div>
  );
}

function Webhooks({ api, profileId }: { api: Api; profileId: string }) {
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
            <table class="list stacked" aria-labelledby="deliveries-h">
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last response</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((d) => (
                  <tr key={d.id}>
                    <td data-label="Created">{localTime(d.createdAt)}</td>
                    <td data-label="Event">
                      <Link href={`/console/operator/deliveries/${d.id}`}>{d.type}</Link>
                    </td>
                    <td data-label="Endpoint">
                      <code>{d.url}</code>
                    </td>
                    <td data-label="Status" data-testid="delivery-state">
                      {d.state}
                    </td>
                    <td data-label="Attempts">
                      {d.attemptCount} / {d.maxAttempts}
                    </td>
                    <td data-label="Last response">{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                    <td>
                      <ActionButton
                        label={`Redeliver ${d.type}`}
                        action={async () => (
                          await unwrap(api.POST('/admin/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id: d.id } } })),
                          deliveries.reload()
                        )}
                      >
                        Redeliver
                      </ActionButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Async>
    </section>
  );
}

const EVENT_STATUSES = ['DRAFT', 'ACTIVE', 'INACTIVE', 'CANCELLED', 'ARCHIVED'] as const;

function Events({ api, profileId }: { api: Api; profileId: string }) {
  return (
    <section aria-labelledby="events-h">
      <h2 id="events-h">Events</h2>
      <FilteredList
        id="event"
        scope={profileId}
        statuses={EVENT_STATUSES}
        load={async (query) =>
          (await unwrap(api.GET('/admin/v1/profiles/{id}/events', { params: { path: { id: profileId }, query } }))).data
        }
        empty={(status) => `No events${status ? ` in ${status}` : ''}. Partners create events with the ticketing API.`}
      >
        {(items, reload) => (
          <table class="list" aria-label="Events">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <td>{e.name}</td>
                  <td>{localTime(e.startsAt)}</td>
                  <td>{e.status}</td>
                  <td class="actions">
                    {e.status === 'DRAFT' && (
                      <ActionButton
                        label={`Publish ${e.name}`}
                        action={async () => (
                          await unwrap(api.POST('/admin/v1/events/{eventId}/publish', { params: { path: { eventId: e.id } } })),
                          reload()
                        )}
                      >
                        Publish
                      </ActionButton>
                    )}
                    {['DRAFT', 'ACTIVE', 'INACTIVE'].includes(e.status) && (
                      <ConfirmButton
                        label={`Cancel ${e.name}`}
                        consequence={{
                          title: `Cancel ${e.name}?`,
                          body: (
                            <p>
                              The event is cancelled for good: no more tickets are sold, and a cancelled event cannot be published again.
                            </p>
                          ),
                          confirm: 'Cancel the event',
                        }}
                        action={async () => (
                          await unwrap(api.POST('/admin/v1/events/{eventId}/cancel', { params: { path: { eventId: e.id } } })),
                          reload()
                        )}
                      >
                        Cancel
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </FilteredList>
    </section>
  );
}

const VERIFICATION_STATUSES = ['awaiting_capture', 'processing', 'manual_review', 'approved', 'declined'] as const;

function Verifications({ api, profileId }: { api: Api; profileId: string }) {
  const [reference, setReference] = useState('');
  const [webhookUrl, setWebhookUrl] = useState('');
  const [captureLink, setCaptureLink] = useState<string | null>(null);
  const [started, setStarted] = useState(0);
  return (
    <section aria-labelledby="verifications-h">
      <h2 id="verifications-h">Verifications</h2>
      {captureLink && <ShownOnce label="Capture link" value={captureLink} link onDone={() => setCaptureLink(null)} />}
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
              },
            }),
          );
          setCaptureLink(created.data.capture_url);
          setReference('');
          setWebhookUrl('');
          setStarted((n) => n + 1);
        }}
      >
        <label for="verification-reference">Reference (optional)</label>
        <input id="verification-reference" value={reference} maxLength={200} onInput={(e) => setReference(e.currentTarget.value)} />
        <label for="verification-webhook">Decision webhook URL (optional, https://)</label>
        <input id="verification-webhook" type="url" value={webhookUrl} onInput={(e) => setWebhookUrl(e.currentTarget.value)} />
      </ActionForm>
      <FilteredList
        id="verification"
        scope={profileId}
        statuses={VERIFICATION_STATUSES}
        refresh={started}
        load={async (query) =>
          (await unwrap(api.GET('/admin/v1/profiles/{id}/verifications', { params: { path: { id: profileId }, query } }))).data
        }
        empty={(status) => `No verifications${status ? ` in ${status}` : ''}.`}
      >
        {(items) => (
          <table class="list" aria-label="Verifications">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Reference</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {items.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Link href={`/console/operator/profiles/${profileId}/verifications/${v.id}`}>
                      <code>{v.id.slice(0, 8)}</code>
                    </Link>
                  </td>
                  <td>{v.status}</td>
                  <td>{v.erased ? 'erased' : (v.decision_reason ?? '—')}</td>
                  <td>{v.erased ? '—' : (v.reference ?? '—')}</td>
                  <td>{v.erased ? localTime(v.erased_at) : localTime(v.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </FilteredList>
    </section>
  );
}

function Governance({ api, profileId }: { api: Api; profileId: string }) {
  const state = useLoad(() => unwrap(api.GET('/admin/v1/profiles/{id}/governance', { params: { path: { id: profileId } } })), [profileId]);
  const [agentId, setAgentId] = useState('');
  const [mandate, setMandate] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const [maxDrift, setMaxDrift] = useState('0.2');
  const [delegateTo, setDelegateTo] = useState('');
  const [grantedBy, setGrantedBy] = useState('');
  const [expires, setExpires] = useState('');
  return (
    <section aria-labelledby="governance-h">
      <h2 id="governance-h">Governance</h2>
      <div class="columns">
        <ActionForm
          label="New agent"
          submit="Register agent"
          action={async () => {
            await unwrap(
              api.POST('/admin/v1/governance/agents', {
                body: {
                  profileId,
                  agentId,
                  mandate: mandate
                    .split(',')
                    .map((m) => m.trim())
                    .filter(Boolean),
                  baseline: { fingerprint, maxDrift: Number(maxDrift) },
                },
              }),
            );
            state.reload();
          }}
        >
          <label for="agent-id">Agent id</label>
          <input id="agent-id" required value={agentId} onInput={(e) => setAgentId(e.currentTarget.value)} />
          <label for="agent-mandate">Mandate (action patterns, comma-separated)</label>
          <input id="agent-mandate" value={mandate} onInput={(e) => setMandate(e.currentTarget.value)} />
          <label for="agent-fingerprint">Baseline fingerprint</label>
          <input id="agent-fingerprint" required value={fingerprint} onInput={(e) => setFingerprint(e.currentTarget.value)} />
          <label for="agent-drift">Maximum drift</label>
          <input
            id="agent-drift"
            type="number"
            step="any"
            min="0"
            required
            value={maxDrift}
            onInput={(e) => setMaxDrift(e.currentTarget.value)}
          />
        </ActionForm>
        <ActionForm
          label="New delegation"
          submit="Delegate"
          action={async () => {
            await unwrap(
              api.POST('/admin/v1/governance/delegations', {
                body: { profileId, agentId: delegateTo, grantedBy, expiresAt: new Date(expires).toISOString() },
              }),
            );
            state.reload();
          }}
        >
          <label for="delegation-agent">Agent id</label>
          <input id="delegation-agent" required value={delegateTo} onInput={(e) => setDelegateTo(e.currentTarget.value)} />
          <label for="delegation-by">Granted by</label>
          <input id="delegation-by" required value={grantedBy} onInput={(e) => setGrantedBy(e.currentTarget.value)} />
          <label for="delegation-expires">Expires (your time zone)</label>
          <input
            id="delegation-expires"
            type="datetime-local"
            required
            value={expires}
            onInput={(e) => setExpires(e.currentTarget.value)}
          />
        </ActionForm>
      </div>
      <Async state={state}>
        {({ data }) => (
          <>
            <h3>Agents</h3>
            {data.agents.length === 0 ? (
              <Notice>No agents.</Notice>
            ) : (
              <table class="list" aria-label="Agents">
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Mandate</th>
                    <th scope="col">Baseline</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.agents.map((a) => (
                    <tr key={a.id}>
                      <td>{a.agentId}</td>
                      <td>{a.mandate.join(', ')}</td>
                      <td>
                        {a.baseline.fingerprint} (drift ≤ {a.baseline.maxDrift})
                      </td>
                      <td>{localTime(a.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h3>Delegations</h3>
            {data.delegations.length === 0 ? (
              <Notice>No delegations.</Notice>
            ) : (
              <table class="list" aria-label="Delegations">
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Granted by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">State</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.delegations.map((d) => (
                    <tr key={d.id}>
                      <td>{d.agentId}</td>
                      <td>{d.grantedBy}</td>
                      <td>{localTime(d.expiresAt)}</td>
                      <td>
                        {d.revokedAt ? `revoked ${localTime(d.revokedAt)}` : Date.parse(d.expiresAt) <= Date.now() ? 'expired' : 'active'}
                      </td>
                      <td>
                        {!d.revokedAt && Date.parse(d.expiresAt) > Date.now() && (
                          <ConfirmButton
                            label={`Revoke the delegation to ${d.agentId}`}
                            consequence={{
                              title: `Revoke the delegation to ${d.agentId}?`,
                              body: (
                                <p>
                                  {d.agentId} may no longer act for {d.grantedBy}: its requests that rely on this delegation are denied from
                                  now on. It cannot be restored; a new delegation would be needed.
                                </p>
                              ),
                              confirm: 'Revoke delegation',
                            }}
                            action={async () => (
                              await unwrap(api.POST('/admin/v1/governance/delegations/{id}/revoke', { params: { path: { id: d.id } } })),
                              state.reload()
                            )}
                          >
                            Revoke
                          </ConfirmButton>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Async>
    </section>
  );
}
