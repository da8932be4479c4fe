import { useState } from 'preact/hooks';
import { localTime, unwrap, useLoad } from '../lib.js';
import { ActionForm, Async, Notice } from '../ui.js';
import type { SectionProps } from './context.js';
import { readCheckpoint, verifyInclusion } from './log-proof.js';

/** A witness's cosignature of the checkpoint (CONTRACT §7.4), when the deployment has witnesses. */
interface Cosignature {
  witness: string;
  timestamp: number | string;
}

type Checked = { seq: number; size: number; ok: boolean; leafMatches: boolean; root: string | null; proofLength: number };

/** The outcome of the browser's own check, in words. */
function CheckResult({ checked, root }: { checked: Checked; root: string }) {
  if (checked.ok)
    return (
      <Notice kind="ok">
        <span data-testid="inclusion-result">
          Record {checked.seq} is in the checkpoint of {checked.size} records: checked in this browser. Its canonical JSON hashes to the
          proof’s leaf hash, and the {checked.proofLength} hashes of the proof lead to the checkpoint’s root.
        </span>
      </Notice>
    );
  return (
    <div class="error" role="alert">
      <span data-testid="inclusion-result">
        Record {checked.seq} is NOT proven in this checkpoint:{' '}
        {checked.leafMatches
          ? `the proof leads to ${checked.root ?? 'no root at all'}, not to the checkpoint’s root ${root}.`
          : 'the record’s canonical JSON does not hash to the proof’s leaf hash.'}
      </span>
    </div>
  );
}

/**
 * A profile's transparency log (docs/governance.md, "Transparency log"): its size, the signed checkpoint and
 * the witnesses' cosignatures, and a record's inclusion checked here, in the browser, with Web
 * Crypto: the server gives the record and the proof; the browser hashes and compares.
 */
export function TransparencyLog({ api, profileId }: SectionProps) {
  const state = useLoad(
    () => unwrap(api.GET('/admin/v1/profiles/{id}/governance/log', { params: { path: { id: profileId } } })),
    [profileId],
  );
  const [seq, setSeq] = useState('1');
  const [checked, setChecked] = useState<Checked | null>(null);
  return (
    <section aria-labelledby="log-h">
      <h2 id="log-h">Transparency log</h2>
      <Async state={state}>
        {({ data }) => {
          const note = readCheckpoint(data.checkpoint);
          const cosignatures = (data as { cosignatures?: Cosignature[] }).cosignatures;
          if (!note) return <Notice kind="warn">The checkpoint cannot be read.</Notice>;
          return (
            <>
              <dl class="facts">
                <dt>Origin</dt>
                <dd>
                  <code>{data.origin}</code>
                </dd>
                <dt>Size</dt>
                <dd data-testid="log-size">
                  {data.tree_size} {data.tree_size === 1 ? 'record' : 'records'}
                </dd>
                <dt>Root</dt>
                <dd>
                  <code data-testid="log-root">{note.root}</code>
                </dd>
                <dt>Verifier key</dt>
                <dd>
                  <code class="wrap">{data.verifier_key}</code>
                </dd>
                <dt>Witnesses</dt>
                <dd data-testid="log-witnesses">
                  {cosignatures === undefined || cosignatures.length === 0 ? (
                    'no cosignatures: this deployment has no witnesses'
                  ) : (
                    <ul>
                      {cosignatures.map((c) => (
                        <li key={c.witness}>
                          <code>{c.witness}</code> cosigned at{' '}
                          {localTime(new Date(typeof c.timestamp === 'number' ? c.timestamp * 1000 : c.timestamp).toISOString())}
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </dl>
              <h3 id="checkpoint-h">Checkpoint</h3>
              <pre class="payload" role="region" aria-labelledby="checkpoint-h" tabIndex={0} data-testid="checkpoint">
                {data.checkpoint}
              </pre>
              {data.tree_size === 0 ? (
                <Notice>The log holds no records yet.</Notice>
              ) : (
                <ActionForm
                  label="Check a record's inclusion"
                  submit="Check in this browser"
                  action={async () => {
                    setChecked(null);
                    const n = Number(seq);
                    const answer = (
                      await unwrap(
                        api.GET('/admin/v1/profiles/{id}/governance/log/records/{seq}', {
                          params: { path: { id: profileId, seq: n }, query: { tree_size: data.tree_size } },
                        }),
                      )
                    ).data;
                    const result = await verifyInclusion(answer.leaf, answer.inclusion, note.root);
                    setChecked({ seq: n, size: data.tree_size, proofLength: answer.inclusion.proof.length, ...result });
                  }}
                >
                  <label for="log-seq">Record (seq, 1 to {data.tree_size})</label>
                  <input
                    id="log-seq"
                    type="number"
                    min={1}
                    max={data.tree_size}
                    required
                    value={seq}
                    onInput={(e) => (setSeq(e.currentTarget.value), setChecked(null))}
                  />
                </ActionForm>
              )}
              {checked && <CheckResult checked={checked} root={note.root} />}
            </>
          );
        }}
      </Async>
    </section>
  );
}
