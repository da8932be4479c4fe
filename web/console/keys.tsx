import { useState } from 'preact/hooks';
import type { ApiClient } from '../shared/api.js';
import { ActionButton } from './action-button.js';
import { ListTable } from './list-table.js';
import { localTime, unwrap, useLoad } from './lib.js';
import { ActionForm, Async, ShownOnce } from './ui.js';
import {
  GOVERNANCE_SCOPES,
  IDENTITY_ROLES,
  KEY_SERVICES,
  TICKETING_SCOPES,
  type GovernanceScope,
  type IdentityRole,
  type KeyService,
  type TicketingScope,
} from './vocabulary.js';

/** How a person recognises a key without its secret: its prefix and last four characters. */
function maskedKey(k: { prefix: string; last4: string }): string {
  return k.last4 ? `${k.prefix}…${k.last4}` : `${k.prefix}…`;
}

/** A profile's API keys: issue one (shown once), see who holds each and when it was last used, revoke one. */
export function Keys({ api, profileId }: { api: ApiClient; profileId: string }) {
  const state = useLoad(() => unwrap(api.GET('/admin/v1/api-keys', { params: { query: { profileId } } })), [profileId]);
  const [service, setService] = useState<KeyService>('identity');
  const [role, setRole] = useState<IdentityRole>('backend');
  const [scopes, setScopes] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [holder, setHolder] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const scopeChoices: readonly string[] = service === 'ticketing' ? TICKETING_SCOPES : service === 'governance' ? GOVERNANCE_SCOPES : [];
  return (
    <section aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      {shown && <ShownOnce label="New API key" value={shown} onDone={() => setShown(null)} />}
      <ActionForm
        label="New API key"
        submit="Create key"
        action={async () => {
          const named = name.trim() ? { name: name.trim() } : {};
          const held = role === 'reviewer' && holder.trim() ? { holder: holder.trim() } : {};
          const body =
            service === 'identity'
              ? { service, profileId, role, ...named, ...held }
              : service === 'ticketing'
                ? { service, profileId, scopes: scopes as TicketingScope[], ...named }
                : { service, profileId, scopes: scopes as GovernanceScope[], ...named };
          const created = await unwrap(api.POST('/admin/v1/api-keys', { body }));
          setShown(created.data.key ?? null);
          setName('');
          setHolder('');
          state.reload();
        }}
      >
        <label for="key-name">Key name (optional: who holds it, e.g. the reviewer)</label>
        <input id="key-name" maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="key-service">Service</label>
        <select id="key-service" value={service} onChange={(e) => (setService(e.currentTarget.value as typeof service), setScopes([]))}>
          {KEY_SERVICES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {service === 'identity' ? (
          <>
            <label for="key-role">Role</label>
            <select id="key-role" value={role} onChange={(e) => setRole(e.currentTarget.value as typeof role)}>
              {IDENTITY_ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            {role === 'reviewer' && (
              <>
                <label for="key-holder">
                  Holder (optional: the person; under four-eyes review keys of one holder count as one reviewer)
                </label>
                <input id="key-holder" maxLength={80} value={holder} onInput={(e) => setHolder(e.currentTarget.value)} />
              </>
            )}
          </>
        ) : (
          <fieldset>
            <legend>Scopes</legend>
            {scopeChoices.map((s) => (
              <label key={s}>
                <input
                  type="checkbox"
                  checked={scopes.includes(s)}
                  onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
                />{' '}
                {s}
              </label>
            ))}
          </fieldset>
        )}
      </ActionForm>
      <Async state={state}>
        {({ data }) => (
          <ListTable
            empty="No API keys yet. Create one above; it is shown once."
            label="API keys"
            rows={data.items}
            rowKey={(k) => k.id}
            columns={[
              { label: 'Name', cell: (k) => k.name ?? <span class="muted">unnamed</span> },
              { label: 'Holder', cell: (k) => k.holder ?? <span class="muted">—</span>, attrs: () => ({ 'data-testid': 'key-holder' }) },
              { label: 'Key', cell: (k) => <code data-testid="key-masked">{maskedKey(k)}</code> },
              { label: 'Service', cell: (k) => k.service },
              { label: 'Grant', cell: (k) => k.role ?? k.scopes?.join(', ') },
              { label: 'Created', cell: (k) => localTime(k.createdAt) },
              { label: 'Last used', cell: (k) => (k.lastUsedAt ? localTime(k.lastUsedAt) : 'never') },
              { label: 'State', cell: (k) => (k.revokedAt ? `revoked ${localTime(k.revokedAt)}` : 'active') },
              {
                label: 'Actions',
                hideLabel: true,
                cell: (k) =>
                  !k.revokedAt && (
                    <ActionButton
                      label={`Revoke key ${k.name ?? maskedKey(k)}`}
                      confirm={{
                        title: `Revoke the key ${k.name ? `“${k.name}”` : maskedKey(k)}?`,
                        body: (
                          <p>
                            Every request made with <code>{maskedKey(k)}</code> ({k.service}
                            {k.role ? `, ${k.role}` : ''}) is refused from now on. A revoked key cannot be restored; whoever uses it needs a
                            new one.
                          </p>
                        ),
                        confirm: 'Revoke key',
                      }}
                      action={() => unwrap(api.DELETE('/admin/v1/api-keys/{id}', { params: { path: { id: k.id } } }))}
                      reload={state.reload}
                    >
                      Revoke
                    </ActionButton>
                  ),
              },
            ]}
          />
        )}
      </Async>
    </section>
  );
}
