import type { ApiClient } from '../../shared/api.js';
import { attemptWords, DELIVERY_STATUS_WORDS, deliveryStatus, type DeliveryFacts } from '../delivery-words.js';
import { localTime, unwrap } from '../lib.js';
import { ListTable } from '../list-table.js';
import { ActionButton } from '../action-button.js';
import { Link } from '../ui.js';

interface LoggedDelivery extends DeliveryFacts {
  id: string;
  type: string;
  url: string;
  maxAttempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** A delivery's standing in one of four words (pending, failing, delivered, gave up), marked for the eye as well. */
export function DeliveryStatusWord({ delivery }: { delivery: DeliveryFacts }) {
  const status = deliveryStatus(delivery);
  return (
    <span class={`delivery-status ${status}`} data-testid="delivery-state">
      {DELIVERY_STATUS_WORDS[status]}
    </span>
  );
}

/** The last attempt's outcome in plain words, with the code or message as the transport recorded it. */
export function LastResponse({ statusCode, error }: { statusCode: number | null; error: string | null }) {
  const words = attemptWords(statusCode, error);
  if (words === null) return <span class="muted">no attempt yet</span>;
  const raw = statusCode === null && error !== null && words !== error ? error.split(':')[0] : null;
  return (
    <span data-testid="last-response">
      {words}
      {raw && (
        <>
          {' '}
          <code class="muted">{raw}</code>
        </>
      )}
    </span>
  );
}

/**
 * Webhook deliveries with their standing, attempts, last answer in words and a Redeliver that
 * says it was queued: a profile's delivery log and a verification's decision webhooks alike.
 */
export function DeliveryTable({
  api,
  items,
  labelledBy,
  reload,
  showEndpoint = true,
}: {
  api: ApiClient;
  items: LoggedDelivery[];
  labelledBy: string;
  reload: () => void;
  showEndpoint?: boolean;
}) {
  return (
    <ListTable
      stacked
      labelledBy={labelledBy}
      rows={items}
      rowKey={(d) => d.id}
      columns={[
        { label: 'Created', cell: (d) => localTime(d.createdAt) },
        { label: 'Event', cell: (d) => <Link href={`/console/operator/deliveries/${d.id}`}>{d.type}</Link> },
        ...(showEndpoint ? [{ label: 'Endpoint', cell: (d: LoggedDelivery) => <code>{d.url}</code> }] : []),
        { label: 'Status', cell: (d) => <DeliveryStatusWord delivery={d} /> },
        { label: 'Attempts', cell: (d) => `${d.attemptCount} / ${d.maxAttempts}` },
        { label: 'Last response', cell: (d) => <LastResponse statusCode={d.lastStatusCode} error={d.lastError} /> },
        { label: 'Next attempt', cell: (d) => (d.nextAttemptAt ? localTime(d.nextAttemptAt) : '—') },
        {
          label: 'Actions',
          hideLabel: true,
          cell: (d) => (
            <ActionButton
              label={`Redeliver ${d.type}`}
              done="Queued: it is sent again now"
              action={() => unwrap(api.POST('/admin/v1/webhook-deliveries/{id}/redeliver', { params: { path: { id: d.id } } }))}
              reload={reload}
            >
              Redeliver
            </ActionButton>
          ),
        },
      ]}
    />
  );
}
