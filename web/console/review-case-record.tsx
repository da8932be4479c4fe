import { Fragment } from 'preact';
import { localTime } from './lib.js';
import { Link } from './ui.js';

// What a case page shows of the case's record, read-only: other uses of its document, the signals
// measured without face checks, the audit trail.

/** Other verifications of the same document: links to those reviewers may open. */
export function UsedBy({ others }: { others: { id: string; status: string; created_at: string; in_reach: boolean }[] }) {
  return (
    <section aria-labelledby="reused-h">
      <h2 id="reused-h">The same document was used by</h2>
      <ul data-testid="document-used-by">
        {others.map((o) => (
          <li key={o.id}>
            {o.in_reach ? <Link href={`/console/review/${o.id}`}>Case {o.id.slice(0, 8)}</Link> : <code>{o.id.slice(0, 8)}</code>} —{' '}
            {o.status}, started {localTime(o.created_at)}
            {!o.in_reach && <span class="muted"> (not open to reviewers)</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Signals that are not face signals (face checks off), as measured. */
export function OtherSignals({ signals }: { signals: Record<string, unknown> }) {
  const entries = Object.entries(signals);
  return (
    <>
      <h3>Signals</h3>
      {entries.length === 0 ? (
        <p>No signals were measured.</p>
      ) : (
        <dl class="facts" data-testid="signals">
          {entries.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </>
  );
}

/** Every event of the case from the audit chain, with who did it (a reviewer key's name where it has one). */
export function AuditTrail({ audit }: { audit: { at: string; type: string; actor: string; actor_name?: string | null }[] }) {
  return (
    <section aria-labelledby="audit-h">
      <h2 id="audit-h">Audit trail</h2>
      <ol class="audit">
        {audit.map((e, i) => (
          <li key={i}>
            <time dateTime={e.at}>{localTime(e.at)}</time> <code>{e.type}</code>{' '}
            <span class="actor">
              {e.actor_name ? (
                <>
                  <strong>{e.actor_name}</strong> ({e.actor})
                </>
              ) : (
                e.actor
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
