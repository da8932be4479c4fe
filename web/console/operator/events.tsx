import { localTime, unwrap } from '../lib.js';
import { FilteredList } from '../filtered-list.js';
import { ActionButton } from '../action-button.js';
import { ListTable } from '../list-table.js';
import { EVENT_STATUSES } from '../vocabulary.js';
import type { SectionProps } from './context.js';

/** A profile's ticketing events by status: publish a draft, cancel one (after confirming). */
export function Events({ api, profileId }: SectionProps) {
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
          <ListTable
            label="Events"
            rows={items}
            rowKey={(e) => e.id}
            columns={[
              { label: 'Name', cell: (e) => e.name },
              { label: 'Starts', cell: (e) => localTime(e.startsAt) },
              { label: 'Status', cell: (e) => e.status },
              {
                label: 'Actions',
                hideLabel: true,
                attrs: () => ({ class: 'actions' }),
                cell: (e) => (
                  <>
                    {e.status === 'DRAFT' && (
                      <ActionButton
                        label={`Publish ${e.name}`}
                        action={() => unwrap(api.POST('/admin/v1/events/{eventId}/publish', { params: { path: { eventId: e.id } } }))}
                        reload={reload}
                      >
                        Publish
                      </ActionButton>
                    )}
                    {['DRAFT', 'ACTIVE', 'INACTIVE'].includes(e.status) && (
                      <ActionButton
                        label={`Cancel ${e.name}`}
                        confirm={{
                          title: `Cancel ${e.name}?`,
                          body: (
                            <p>
                              The event is cancelled for good: no more tickets are sold, and a cancelled event cannot be published again.
                            </p>
                          ),
                          confirm: 'Cancel the event',
                        }}
                        action={() => unwrap(api.POST('/admin/v1/events/{eventId}/cancel', { params: { path: { eventId: e.id } } }))}
                        reload={reload}
                      >
                        Cancel
                      </ActionButton>
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </FilteredList>
    </section>
  );
}
