import { useState } from 'preact/hooks';
import { localTime, unwrap, useLoad } from '../lib.js';
import { ActionForm, Async } from '../ui.js';
import { ActionButton } from '../action-button.js';
import { ListTable } from '../list-table.js';
import type { SectionProps } from './context.js';
import { LogKeys } from './log-keys.js';

/** A profile's governance agents and delegations: register, delegate, revoke (after confirming). */
export function Governance({ api, profileId }: SectionProps) {
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
            <ListTable
              empty="No agents."
              label="Agents"
              rows={data.agents}
              rowKey={(a) => a.id}
              columns={[
                { label: 'Agent', cell: (a) => a.agentId },
                { label: 'Mandate', cell: (a) => a.mandate.join(', ') },
                {
                  label: 'Baseline',
                  cell: (a) => (
                    <>
                      {a.baseline.fingerprint} (drift ≤ {a.baseline.maxDrift})
                    </>
                  ),
                },
                { label: 'Created', cell: (a) => localTime(a.createdAt) },
              ]}
            />
            <h3>Delegations</h3>
            <ListTable
              empty="No delegations."
              label="Delegations"
              rows={data.delegations}
              rowKey={(d) => d.id}
              columns={[
                { label: 'Agent', cell: (d) => d.agentId },
                { label: 'Granted by', cell: (d) => d.grantedBy },
                { label: 'Expires', cell: (d) => localTime(d.expiresAt) },
                {
                  label: 'State',
                  cell: (d) =>
                    d.revokedAt ? `revoked ${localTime(d.revokedAt)}` : Date.parse(d.expiresAt) <= Date.now() ? 'expired' : 'active',
                },
                {
                  label: 'Actions',
                  hideLabel: true,
                  cell: (d) =>
                    !d.revokedAt &&
                    Date.parse(d.expiresAt) > Date.now() && (
                      <ActionButton
                        label={`Revoke the delegation to ${d.agentId}`}
                        confirm={{
                          title: `Revoke the delegation to ${d.agentId}?`,
                          body: (
                            <p>
                              {d.agentId} may no longer act for {d.grantedBy}: its requests that rely on this delegation are denied from now
                              on. It cannot be restored; a new delegation would be needed.
                            </p>
                          ),
                          confirm: 'Revoke delegation',
                        }}
                        action={() => unwrap(api.POST('/admin/v1/governance/delegations/{id}/revoke', { params: { path: { id: d.id } } }))}
                        reload={state.reload}
                      >
                        Revoke
                      </ActionButton>
                    ),
                },
              ]}
            />
          </>
        )}
      </Async>
      <LogKeys api={api} profileId={profileId} />
    </section>
  );
}
