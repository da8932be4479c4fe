import { localTime, unwrap, useLoad } from '../lib.js';
import { Async, Notice } from '../ui.js';
import type { SectionProps } from './context.js';

/**
 * The profile's transparency-log keys, as GET /v1/governance/log/keys publishes them: the operator
 * hands them to an auditor, who pins them instead of trusting the keys inside the checkpoints it checks.
 */
export function LogKeys({ api, profileId }: SectionProps) {
  const state = useLoad(() => unwrap(api.GET('/admin/v1/governance/log-keys')), []);
  return (
    <section aria-labelledby="log-keys-h">
      <h3 id="log-keys-h">Transparency-log keys</h3>
      <p>
        Give these to the profile's auditors out of band: they pin them and refuse a checkpoint signed with other keys. The same list is
        public at <code>GET /v1/governance/log/keys</code>.
      </p>
      <Async state={state}>
        {({ data }) => {
          const entry = data.keys.find((k) => k.origin.endsWith(`/governance/${profileId}`));
          if (!entry) return <Notice>No log yet: it starts with the profile's first governance key.</Notice>;
          return (
            <dl class="log-keys">
              <dt>Origin</dt>
              <dd>
                <code>{entry.origin}</code>
              </dd>
              <dt>Note verifier key (Ed25519)</dt>
              <dd>
                <code class="wrap">{entry.verifier_key}</code>
              </dd>
              <dt>ML-DSA-65 public key</dt>
              <dd>
                <details>
                  <summary>{`${entry.ml_dsa_public_key.slice(0, 24)}… (${entry.ml_dsa_public_key.length} characters)`}</summary>
                  <code class="wrap">{entry.ml_dsa_public_key}</code>
                </details>
              </dd>
              <dt>Since</dt>
              <dd>{localTime(entry.created_at)}</dd>
            </dl>
          );
        }}
      </Async>
    </section>
  );
}
