import { useEffect, useState } from 'preact/hooks';
import { decisionReasonText } from './decision-reasons.js';
import { age, client, localTime, navigate, reviewerKey, unwrap, useLoad } from './lib.js';
import { ListTable } from './list-table.js';
import { flash, queueIds } from './review-case-state.js';
import { ClaimHolder } from './review-claim.js';
import { standingLabel, whoDecided } from './review-standing.js';
import { ReviewerNav } from './reviewer.js';
import { typingInField, useShortcuts } from './shortcuts.js';
import { Async, focusPageHeading, Link, Notice, Shell } from './ui.js';

/** The cases waiting for a decision, oldest first: j/k move through them, Enter opens one. */
export function ReviewQueue() {
  const api = client(reviewerKey.value);
  const state = useLoad(() => unwrap(api.GET('/v1/review')), []);
  const [selected, setSelected] = useState(0);
  const items = state.data?.items ?? [];
  useEffect(() => {
    queueIds.value = items.map((i) => i.id);
  }, [state.data]);
  useShortcuts((e) => {
    if (typingInField(e) || items.length === 0) return;
    if (e.key === 'j') setSelected((s) => Math.min(items.length - 1, s + 1));
    else if (e.key === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (e.key === 'Enter' && items[selected] && (e.target as HTMLElement).tagName !== 'A')
      navigate(`/console/review/${items[selected]!.id}`);
  });
  useEffect(() => {
    document.getElementById(`case-${selected}`)?.focus();
  }, [selected]);
  // After the last decision the reader lands here: on the heading, with what happened beneath it.
  useEffect(() => {
    if (flash.value?.on === 'queue') focusPageHeading();
  }, []);
  return (
    <Shell title="Review queue" nav={<ReviewerNav />}>
      {flash.value?.on === 'queue' && <Notice kind={flash.value.kind}>{flash.value.text}</Notice>}
      <p class="hint">
        Oldest first. Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>Enter</kbd> open.
      </p>
      <Async state={state}>
        {(data) =>
          data.items.length === 0 ? (
            <Notice>The queue is empty: nothing waits for a decision.</Notice>
          ) : (
            <>
              <p data-testid="queue-count">
                <strong>{data.items.length}</strong> {data.items.length === 1 ? 'case waits' : 'cases wait'} for a decision.{' '}
                <Link href={`/console/review/${data.items[0]!.id}`}>Open the oldest</Link>
              </p>
              <ListTable
                caption="Verifications waiting for a decision"
                rows={data.items}
                rowKey={(item) => item.id}
                rowAttrs={(_, i) => ({ class: i === selected ? 'selected' : '' })}
                columns={[
                  {
                    label: 'Case',
                    cell: (item, i) => (
                      <Link id={`case-${i}`} href={`/console/review/${item.id}`}>
                        {item.id.slice(0, 8)}
                      </Link>
                    ),
                  },
                  { label: 'Customer reference', cell: (item) => item.reference ?? '—' },
                  { label: 'Reason', cell: (item) => decisionReasonText(item.reason) },
                  {
                    label: 'Review',
                    cell: (item) => (
                      <>
                        {standingLabel(item)}
                        {item.decisions.length > 0 && <span class="muted"> — {item.decisions.map(whoDecided).join('; ')}</span>}
                        {item.claim && <ClaimHolder claim={item.claim} />}
                      </>
                    ),
                  },
                  { label: 'Waiting', cell: (item) => age(item.updated_at) },
                  { label: 'Created', cell: (item) => localTime(item.created_at) },
                ]}
              />
            </>
          )
        }
      </Async>
    </Shell>
  );
}
